"""Input typed into a session, cut into the lines a shell would run: pieces join up until Enter.

`write_stdin "rm -"` then `"rf victim\\n"` runs `rm -rf victim`; deny rules must see that whole line,
so the unfinished tail of earlier input is carried into the next check. What a line becomes depends on
who edits it: the terminal in canonical mode (`sh`, `dash`: Ctrl-U drops the line, Ctrl-W a word,
Backspace a character, anything else is a character) or readline (`bash`, `python`: a cursor that
Ctrl-A/E/B/F and arrow keys move, kills and yank). Both readings are produced, and deny rules are
checked against each, so `r^Wrm -rf x` or `-rf x^Arm ` cannot slip by. The carried tail is the raw
input since the last Enter, replayed whole at the next check, so the cursor state is never lost.
"""

from __future__ import annotations

from dataclasses import dataclass

_ENTER = "\r\n"
_INTERRUPT = "\x03"  # Ctrl-C: both editors drop the line
_ERASE = "\x08\x7f"  # Backspace, DEL
_WORD_ERASE = "\x17"  # Ctrl-W
_KILL_LINE = "\x15"  # Ctrl-U
# An unfinished line longer than this is not a command anyone is typing; only its tail is kept.
MAX_PENDING_CHARS = 4096
_ESCAPES = {
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1bOC": "right",
    "\x1bOD": "left",
    "\x1b[H": "home",
    "\x1b[F": "end",
    "\x1bOH": "home",
    "\x1bOF": "end",
    "\x1b[1~": "home",
    "\x1b[4~": "end",
    "\x1b[3~": "delete",
    "\x1bb": "word-left",
    "\x1bf": "word-right",
    "\x1bd": "kill-word",
    "\x1b\x7f": "rubout-word",
}
_KEYS = {
    "\x01": "home",
    "\x05": "end",
    "\x02": "left",
    "\x06": "right",
    "\x04": "delete",
    "\x0b": "kill-end",
    "\x15": "kill-start",
    "\x17": "rubout-word",
    "\x19": "yank",
    "\x14": "transpose",
    "\x08": "backspace",
    "\x7f": "backspace",
}


@dataclass(frozen=True)
class TypedLines:
    """The lines some input completes (each editor's reading), the raw unfinished input, and its readings."""

    completed: tuple[str, ...]
    pending: str
    unfinished: tuple[str, ...] = ()


def type_input(pending: str, chars: str) -> TypedLines:
    """The lines `chars` completes when typed after the unfinished raw input `pending`."""
    text = pending + chars
    completed: dict[str, None] = {}
    start = 0
    for index, ch in enumerate(text):
        if ch in _ENTER or ch in _INTERRUPT:
            if ch in _ENTER:
                for line in _readings(text[start:index]):
                    completed[line] = None
            start = index + 1
    raw = text[start:][-MAX_PENDING_CHARS:]
    return TypedLines(tuple(completed), raw, tuple(line for line in _readings(raw) if line))


def _readings(raw: str) -> tuple[str, ...]:
    readings = [line for line in (_canonical(raw), _readline(raw)) if line]
    return tuple(dict.fromkeys(readings))


def _canonical(raw: str) -> str:
    line: list[str] = []
    for ch in raw:
        if ch in _KILL_LINE:
            line = []
        elif ch in _ERASE:
            if line:
                line.pop()
        elif ch in _WORD_ERASE:
            _rubout_word(line, len(line))
        else:
            line.append(ch)
    return "".join(line)


def _rubout_word(line: list[str], cursor: int) -> int:
    """Delete the whitespace-delimited word before `cursor` (Ctrl-W); returns the new cursor."""
    start = cursor
    while start > 0 and line[start - 1].isspace():
        start -= 1
    while start > 0 and not line[start - 1].isspace():
        start -= 1
    del line[start:cursor]
    return start


def _readline(raw: str) -> str:
    line: list[str] = []
    cursor = 0
    killed = ""
    i = 0
    while i < len(raw):
        key, size = _key(raw, i)
        i += size
        if key is None:
            ch = raw[i - size]
            if ch >= " ":  # unbound controls do nothing in readline
                line.insert(cursor, ch)
                cursor += 1
            continue
        cursor, killed = _edit(line, cursor, killed, key)
    return "".join(line)


def _key(raw: str, i: int) -> tuple[str | None, int]:
    if raw[i] == "\x1b":
        for sequence, key in _ESCAPES.items():
            if raw.startswith(sequence, i):
                return key, len(sequence)
        return "ignore", 1
    return _KEYS.get(raw[i]), 1


def _edit(line: list[str], cursor: int, killed: str, key: str) -> tuple[int, str]:
    """Apply one editing key to `line`; the new cursor and kill buffer."""
    if key == "home":
        return 0, killed
    if key == "end":
        return len(line), killed
    if key == "left":
        return max(0, cursor - 1), killed
    if key == "right":
        return min(len(line), cursor + 1), killed
    if key == "word-left":
        while cursor > 0 and not line[cursor - 1].isalnum():
            cursor -= 1
        while cursor > 0 and line[cursor - 1].isalnum():
            cursor -= 1
        return cursor, killed
    if key == "word-right":
        while cursor < len(line) and not line[cursor].isalnum():
            cursor += 1
        while cursor < len(line) and line[cursor].isalnum():
            cursor += 1
        return cursor, killed
    if key == "backspace" and cursor > 0:
        del line[cursor - 1]
        return cursor - 1, killed
    if key == "delete" and cursor < len(line):
        del line[cursor]
        return cursor, killed
    if key == "kill-end":
        killed = "".join(line[cursor:])
        del line[cursor:]
        return cursor, killed
    if key == "kill-start":
        killed = "".join(line[:cursor])
        del line[:cursor]
        return 0, killed
    if key == "rubout-word":
        before = "".join(line)
        start = _rubout_word(line, cursor)
        return start, before[start:cursor]
    if key == "kill-word":
        end = cursor
        while end < len(line) and not line[end].isalnum():
            end += 1
        while end < len(line) and line[end].isalnum():
            end += 1
        killed = "".join(line[cursor:end])
        del line[cursor:end]
        return cursor, killed
    if key == "yank":
        line[cursor:cursor] = list(killed)
        return cursor + len(killed), killed
    if key == "transpose" and cursor > 0:
        at = min(cursor, len(line) - 1)
        if at > 0:
            line[at - 1], line[at] = line[at], line[at - 1]
        return min(len(line), at + 1), killed
    return cursor, killed
