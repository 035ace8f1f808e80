"""The bits of Markdown structure the instruction pipeline must respect (pure): fences and code spans.

Instruction files quote commands in code (`` `cat @docs/x.md` ``, a ```` ```bash ```` block); nothing
inside code is an import or a comment, and a cut must never leave a fence open, or every later section
heading would render as code. Fences follow CommonMark, read line by line: an opener is three or more
backticks or tildes (a backtick opener's info string holds no backtick), at any indentation (fences in
list items are indented); it is closed only by a line of the same character, at least as long, and
nothing else. Code spans are read within a line: a run of N backticks up to the next run of exactly N.
"""

from __future__ import annotations

from typing import NamedTuple


class FenceOpener(NamedTuple):
    """An open fence: its character and how many of them opened it."""

    char: str
    length: int

    def closer(self) -> str:
        """The line that closes this fence."""
        return self.char * self.length


def fence_opener(line: str) -> FenceOpener | None:
    """The fence `line` opens, or None when it is not a fence opener."""
    stripped = line.strip()
    if not stripped or stripped[0] not in "`~":
        return None
    char = stripped[0]
    length = len(stripped) - len(stripped.lstrip(char))
    if length < 3:
        return None
    if char == "`" and "`" in stripped[length:]:
        return None  # "```a` b```" is inline code, not a fence
    return FenceOpener(char, length)


def closes(line: str, opener: FenceOpener) -> bool:
    """Whether `line` closes the fence `opener` opened."""
    stripped = line.strip()
    return len(stripped) >= opener.length and stripped == opener.char * len(stripped)


class FenceTracker:
    """Follows fenced blocks line by line; `feed` says whether a line is code (fence lines included)."""

    def __init__(self) -> None:
        self.open: FenceOpener | None = None

    def feed(self, line: str) -> bool:
        """Whether `line` belongs to a fenced block, updating the state for the next line."""
        if self.open is not None:
            if closes(line, self.open):
                self.open = None
            return True
        self.open = fence_opener(line)
        return self.open is not None


def open_fence_at_end(text: str) -> FenceOpener | None:
    """The fence still open at the end of `text`, if any."""
    tracker = FenceTracker()
    for line in text.split("\n"):
        tracker.feed(line.removesuffix("\r"))
    return tracker.open


def close_open_fence(text: str) -> str:
    """`text` with a closing line added when it ends inside a fenced block (a cut, or a forgotten close)."""
    opener = open_fence_at_end(text)
    if opener is None:
        return text
    return f"{text.rstrip()}\n{opener.closer()}\n"


def blank_code_spans(line: str) -> str:
    """`line` with every inline code span (delimiters included) replaced by spaces.

    A backtick run without a closing run of the same length is literal text, as in CommonMark.
    """
    out: list[str] = []
    index = 0
    size = len(line)
    while index < size:
        if line[index] != "`":
            out.append(line[index])
            index += 1
            continue
        run = _run_length(line, index)
        end = _closing_run(line, index + run, run)
        if end is None:
            out.append(line[index : index + run])
            index += run
            continue
        out.append(" " * (end + run - index))
        index = end + run
    return "".join(out)


def _run_length(line: str, start: int) -> int:
    end = start
    while end < len(line) and line[end] == "`":
        end += 1
    return end - start


def _closing_run(line: str, start: int, length: int) -> int | None:
    index = line.find("`", start)
    while index >= 0:
        run = _run_length(line, index)
        if run == length:
            return index
        index = line.find("`", index + run)
    return None
