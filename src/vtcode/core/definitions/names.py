"""Names of the built-in slash commands: a custom command of the same name is ignored (pure data).

The TUI's `/help` table (`tui.commands.COMMANDS`) must stay a subset of this; a test checks it.
"""

from __future__ import annotations

BUILTIN_COMMANDS = frozenset(
    {
        "help", "new", "resume", "compact", "jobs", "memory", "hooks", "status", "permissions", "model",
        "profile", "steer", "pause", "quit", "skills", "commands", "exit", "clear", "init",
    }
)  # fmt: skip
