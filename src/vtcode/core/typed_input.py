"""Input typed into a session, cut into the lines a shell would run: pieces join up until Enter.

`write_stdin "rm -"` then `"rf victim\\n"` runs `rm -rf victim`; deny rules must see that whole line,
so the unfinished tail of earlier input is carried into the next check. The common line-editing keys
are applied as a terminal in canonical mode would (Ctrl-C and Ctrl-U drop the line, Backspace and
DEL drop a character); anything cleverer (arrow keys, history) is beyond a guard against mistakes.
"""

from __future__ import annotations

from dataclasses import dataclass

_ENTER = "\r\n"
_KILL_LINE = "\x03\x15"  # Ctrl-C, Ctrl-U
_ERASE = "\x08\x7f"  # Backspace, DEL
# An unfinished line longer than this is not a command anyone is typing; only its tail is kept.
MAX_PENDING_CHARS = 4096


@dataclass(frozen=True)
class TypedLines:
    """The lines completed by some input, and the unfinished text after the last Enter."""

    completed: tuple[str, ...]
    pending: str


def type_input(pending: str, chars: str) -> TypedLines:
    """The lines `chars` completes when typed after the unfinished `pending` text."""
    completed: list[str] = []
    line = list(pending)
    for ch in chars:
        if ch in _ENTER:
            if line:
                completed.append("".join(line))
            line = []
        elif ch in _KILL_LINE:
            line = []
        elif ch in _ERASE:
            if line:
                line.pop()
        else:
            line.append(ch)
    return TypedLines(tuple(completed), "".join(line)[-MAX_PENDING_CHARS:])
