"""Applying an update's hunks to a file's text in memory; pure, so a patch is checked before any write.

Each hunk is located after the previous one. Its `@@` headers, when given, are found first and the
hunk is searched from the last of them. Matching tries exact lines, then lines with trailing
whitespace ignored, then lines with all surrounding whitespace ignored. Context lines keep the file's
own text, so a fuzzy match never rewrites them. Line endings (LF, CRLF, even mixed) and the presence
of a final newline are kept; added lines take the file's first line ending.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vtcode.protocol.errors import ToolError
from vtcode.tools.patch_parse import Hunk, HunkLine

_BOM = "\ufeff"
_SHOWN_HUNK_LINES = 6


class HunkMismatchError(ToolError):
    """A hunk's lines (or its `@@` header) could not be found in the file."""


@dataclass(frozen=True)
class _Line:
    text: str
    # "\n", "\r\n", or "" for a last line without a newline.
    ending: str


def _exact(line: str) -> str:
    return line


def _loose(line: str) -> str:
    # U+FEFF is invisible in a model's view of the file; a copied byte-order mark must not block a match.
    return line.replace(_BOM, "").strip()


_NORMALIZERS: tuple[Callable[[str], str], ...] = (_exact, str.rstrip, _loose)


def apply_hunks(text: str, hunks: Sequence[Hunk], display: str) -> str:
    """The new text of a file after `hunks`; raises `HunkMismatchError` naming the failing hunk."""
    bom = text.startswith(_BOM)
    body = text.removeprefix(_BOM)
    lines = _split(body)
    eol = next((line.ending for line in lines if line.ending), "\n")
    final_newline = body.endswith("\n") or not body
    finder = _Finder([line.text for line in lines])
    edits: list[tuple[int, int, list[_Line]]] = []
    cursor = 0
    for number, hunk in enumerate(hunks, start=1):
        start, length, body_lines = _locate(finder, hunk, cursor, number, display)
        matched = lines[start : start + length]
        edits.append((start, length, _replacement(body_lines, matched, eol)))
        cursor = start + length
    result: list[_Line] = []
    previous = 0
    for start, length, replacement in edits:
        result.extend(lines[previous:start])
        result.extend(replacement)
        previous = start + length
    result.extend(lines[previous:])
    return (_BOM if bom else "") + _join(result, eol, final_newline)


def _locate(
    finder: _Finder, hunk: Hunk, cursor: int, number: int, display: str
) -> tuple[int, int, tuple[HunkLine, ...]]:
    """Where the hunk applies: start line, number of lines replaced, and the body lines to use."""
    anchor: int | None = None
    position = cursor
    for header in hunk.headers:
        anchor = finder.find_header(header, position)
        if anchor is None:
            raise HunkMismatchError(
                f"hunk {number} of {display}: its context line '@@ {header}' was not found"
                + (f" after line {position}" if position else "")
                + "; no file was changed. Read the file again and use a line that exists."
            )
        position = anchor + 1
    body = hunk.lines
    old = hunk.old_lines
    if not old:
        # Pure insertion: right after the anchor line, else at the end of the file.
        at = anchor + 1 if anchor is not None and not hunk.end_of_file else len(finder.lines)
        return at, 0, body
    search_from = cursor if anchor is None else anchor
    start = finder.find(old, search_from, at_end=hunk.end_of_file)
    if start is None and len(body) > 1 and body[-1] == HunkLine(" ", ""):
        # A trailing blank context line usually stands for the file's final newline.
        body = body[:-1]
        old = old[:-1]
        start = finder.find(old, search_from, at_end=hunk.end_of_file)
    if start is None:
        raise HunkMismatchError(_mismatch_message(hunk, number, display))
    return start, len(old), body


def _mismatch_message(hunk: Hunk, number: int, display: str) -> str:
    where = " at the end of the file" if hunk.end_of_file else ""
    old_side = [line for line in hunk.lines if line.kind != "+"]
    shown = [f"  {line.kind}{line.text}" for line in old_side[:_SHOWN_HUNK_LINES]]
    if len(old_side) > _SHOWN_HUNK_LINES:
        shown.append("  ...")
    return (
        f"hunk {number} of {display} did not match{where}:\n"
        + "\n".join(shown)
        + "\nNo file was changed. Read the file again (read_file) and copy its context and "
        "removed lines exactly, in order, below any earlier hunk."
    )


def _replacement(body: Sequence[HunkLine], matched: Sequence[_Line], eol: str) -> list[_Line]:
    out: list[_Line] = []
    consumed = 0
    for line in body:
        if line.kind == " ":
            out.append(matched[consumed])
            consumed += 1
        elif line.kind == "-":
            consumed += 1
        else:
            out.append(_Line(line.text, eol))
    return out


def _split(text: str) -> list[_Line]:
    # Only "\n" ends a line: str.splitlines would also split on form feeds and U+2028.
    parts = text.split("\n")
    lines = [_Line(part[:-1], "\r\n") if part.endswith("\r") else _Line(part, "\n") for part in parts[:-1]]
    if parts[-1]:
        lines.append(_Line(parts[-1], ""))
    return lines


def _join(lines: Sequence[_Line], eol: str, final_newline: bool) -> str:
    last = len(lines) - 1
    return "".join(
        line.text + ("" if index == last and not final_newline else line.ending or eol)
        for index, line in enumerate(lines)
    )


class _Finder:
    """Searches the file's lines at increasing fuzz levels, normalizing each level only once."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._views: dict[int, list[str]] = {0: lines}

    def _view(self, level: int) -> list[str]:
        view = self._views.get(level)
        if view is None:
            view = [_NORMALIZERS[level](line) for line in self.lines]
            self._views[level] = view
        return view

    def find(self, pattern: Sequence[str], start: int, *, at_end: bool) -> int | None:
        """First index at or after `start` where `pattern` matches; only the very end if `at_end`."""
        size = len(pattern)
        last_start = len(self.lines) - size
        if last_start < start:
            return None
        candidates = range(last_start, last_start + 1) if at_end else range(start, last_start + 1)
        for level, normalize in enumerate(_NORMALIZERS):
            view = self._view(level)
            wanted = [normalize(line) for line in pattern]
            for index in candidates:
                if view[index] == wanted[0] and view[index : index + size] == wanted:
                    return index
        return None

    def find_header(self, header: str, start: int) -> int | None:
        """The first line at or after `start` equal to `header` (fuzzily), else one starting with it."""
        for level, normalize in enumerate(_NORMALIZERS):
            view = self._view(level)
            wanted = normalize(header)
            for index in range(start, len(self.lines)):
                if view[index] == wanted:
                    return index
        # Models abbreviate signatures ("@@ def handle" for "def handle(self, event):").
        stripped = header.strip()
        stripped_view = self._view(len(_NORMALIZERS) - 1)
        for index in range(start, len(self.lines)):
            if stripped_view[index].startswith(stripped):
                return index
        return None
