r"""The Python engine of `grep_files`: a line-by-line scan in bounded memory, whatever the line lengths.

A file is read a line at a time, and a line longer than `PIECE_CHARS` (minified code, a 200 MB JSON
dump) a piece at a time: each piece is searched together with the last `OVERLAP_CHARS` of the one
before, so a match straddling a cut is still found. `^` never matches at a cut (the search starts
one character into the window). A pattern that can test the end of its text (`$`, `\Z`, `\b`,
`\B`, a lookahead) does not count a match that touches the cut after a piece: if it is real, the
next window finds it again. What can differ from a whole-line search, on such long lines only: a
match longer than the overlap, or, for those patterns, a greedy match reaching every cut.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

import msgspec

from vtcode.protocol.errors import ToolError
from vtcode.tools.regular_file import open_regular

# Bytes of one line read and searched at once; also the size of each read.
PIECE_BYTES = 1 << 20
OVERLAP_CHARS = 4096
# The text kept of a matching line: grep_files shows a few hundred bytes of it at most.
KEPT_TEXT_CHARS = 4096
_END_TESTS = ("$", "\\Z", "\\b", "\\B", "(?=", "(?!")


class GrepMatch(msgspec.Struct, frozen=True, order=True):
    """One matching line: workspace-relative path, 1-based line number, line text without its ending."""

    path: str
    line: int
    text: str


class _Binary(Exception):
    """A NUL byte was found: the whole file is binary and yields no matches."""


def python_search(root: Path, files: Sequence[str], regex: re.Pattern[str]) -> list[GrepMatch]:
    """Scan `files` (workspace-relative) line by line with Python's `re`; sorted by path, then line."""
    matches: list[GrepMatch] = []
    for relative in files:
        try:
            # Listed as a regular file, but it may have been swapped for a named pipe since.
            with open_regular(root / relative, relative) as handle:
                found = [GrepMatch(relative, number, text) for number, text in _matching_lines(handle, regex)]
        except (OSError, ToolError, _Binary):
            continue  # vanished since listed, unreadable, or binary: skipped, as rg does
        matches.extend(found)
    matches.sort()
    return matches


def _matching_lines(handle: BinaryIO, regex: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    number = 0
    # Matches are held back until the file is read to its end: a NUL anywhere makes it binary.
    found: list[tuple[int, str]] = []
    while head := handle.readline(PIECE_BYTES):
        _refuse_binary(head)
        number += 1
        if head.endswith(b"\n") or len(head) < PIECE_BYTES:
            # Decoding a whole line equals splitting decoded text on "\n": a newline never sits
            # inside an invalid sequence that the decoder replaces.
            text = head.decode("utf-8", errors="replace").removesuffix("\n").removesuffix("\r")
            if regex.search(text):
                found.append((number, text[:KEPT_TEXT_CHARS]))
            continue
        kept = _search_long_line(handle, regex, head)
        if kept is not None:
            found.append((number, kept))
    yield from found


def _search_long_line(handle: BinaryIO, regex: re.Pattern[str], head: bytes) -> str | None:
    """Search a line that did not fit in one piece; its kept text when it matches, else None.

    The rest of the line is always consumed, so the handle is left at the next line.
    """
    # Pieces are cut at byte counts, so a character may span two of them.
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    current = decoder.decode(head)
    kept = current[:KEPT_TEXT_CHARS]
    matched = False
    before = ""  # the tail of what was searched already; empty for the first piece
    at_end = False
    while not at_end:
        raw = handle.readline(PIECE_BYTES)
        _refuse_binary(raw)
        at_end = not raw or raw.endswith(b"\n")
        following = decoder.decode(raw, final=at_end)
        if at_end:
            following = following.removesuffix("\n").removesuffix("\r")
        matched = matched or _piece_matches(regex, before, current, final=False)
        before = (before + current)[-OVERLAP_CHARS:]
        current = following
    if not matched and current:
        matched = _piece_matches(regex, before, current, final=True)
    return kept if matched else None


def _piece_matches(regex: re.Pattern[str], before: str, current: str, *, final: bool) -> bool:
    window = before + current
    # With `before`, its first character stays outside the searched range: `^` cannot match at the
    # cut, since `pos` is not a line start for `re`, while look-behinds still see real text.
    found = regex.search(window, 1 if before else 0)
    if found is None:
        return False
    return final or found.end() < len(window) or not _tests_the_end(regex)


def _tests_the_end(regex: re.Pattern[str]) -> bool:
    """Whether a match of `regex` can depend on what follows it (so a cut may fake it)."""
    return any(token in regex.pattern for token in _END_TESTS)


def _refuse_binary(raw: bytes) -> None:
    if b"\0" in raw:
        raise _Binary
