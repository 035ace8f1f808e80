"""The interactive terminal UI (`vtcode` with no subcommand): a Textual front end over `runtime.Session`.

It parses keys and renders the session's events; every effect goes through `Session.submit` or a
session property. It is imported only when the TUI starts, so `vtcode exec` never loads Textual.
"""
