"""Text from the model or a command, made safe to put on the screen (no escape sequence reaches it)."""

from __future__ import annotations

import re

# CSI (`ESC [ ... final`), OSC (`ESC ] ... BEL|ST`), DCS/SOS/PM/APC strings, and two-character escapes.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[@-Z\\-_]?"
    r"|\x9b[0-?]*[ -/]*[@-~]"
)
# C0 and C1 controls other than newline and tab; a carriage return alone would overwrite the line.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def safe_text(text: str) -> str:
    """`text` without escape sequences and control characters (newlines and tabs stay)."""
    if not text.isprintable():
        text = text.replace("\r\n", "\n")
        text = _ESCAPES.sub("", text)
        text = _CONTROLS.sub("", text)
    return text


def tail_lines(text: str, count: int) -> str:
    """The last `count` lines of `text` (a command's live output as a card shows it)."""
    if count <= 0:
        return ""
    lines = text.rstrip("\n").split("\n")
    return "\n".join(lines[-count:])
