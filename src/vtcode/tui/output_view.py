"""A command card's full-output view, bounded: a big output shows its start and its end.

The view renders every line it holds up front (a `Static`), at about 0.15 ms a line: the 8 MB a card
may read from a spool froze the app for minutes. Beyond `MAX_LINES` lines or `MAX_CHARS` characters the
view keeps the first and the last lines and names the file that holds all of them.
"""

from __future__ import annotations

from vtcode.exec.spool import spool_relpath
from vtcode.runtime.session import Session
from vtcode.tui.screens import TextScreen

MAX_LINES = 2000
MAX_CHARS = 200_000


def output_screen(session: Session, session_id: str, command: str) -> TextScreen:
    """The view of command session `session_id`'s output (raises `VtcodeError` when it cannot be read)."""
    output = session.command_output(session_id)
    return TextScreen(f"$ {command}", bounded_output(output, spool_relpath(session_id)) or "(no output)")


def bounded_output(text: str, where: str) -> str:
    """`text`, or its first and last lines around a line that says what is left out and where it is."""
    ending = "\n" if text.endswith("\n") else ""
    rows = text.removesuffix("\n").split("\n")
    if len(rows) <= MAX_LINES and len(text) <= MAX_CHARS:
        return text
    kept = min(MAX_LINES // 2, (len(rows) + 1) // 2)
    tail_rows = rows[kept:][-kept:]
    head = "\n".join(rows[:kept])[: MAX_CHARS // 2]
    tail = "\n".join(tail_rows)[-(MAX_CHARS // 2) :]
    # Rows shown in part (cut by the character bound) count as shown.
    left_out = len(rows) - (head.count("\n") + 1) - (tail.count("\n") + 1 if tail_rows else 0)
    chars = len(text) - len(ending) - len(head) - len(tail) - (1 if tail_rows else 0)
    note = f"[… {left_out:,} lines, {chars:,} characters not shown here: the whole output is in {where} …]"
    return "\n".join([head, note, tail] if tail_rows else [head, note]) + ending
