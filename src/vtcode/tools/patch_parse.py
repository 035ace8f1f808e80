"""Parsing the apply_patch envelope (the Codex / VT Code format) into data; no file system access.

```
*** Begin Patch
*** Add File: path            every following line starts with "+"
*** Update File: path
*** Move to: new/path         optional, directly after Update File
@@ def header                 optional; several in a row narrow step by step
 context / -removed / +added
*** End of File               optional: the hunk is anchored at the end of the file
*** Delete File: path
*** End Patch
```
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from vtcode.protocol.errors import ToolError

BEGIN = "*** Begin Patch"
END = "*** End Patch"
# Prefixes without the trailing space, so "*** Delete File:path" still parses.
ADD = "*** Add File:"
DELETE = "*** Delete File:"
UPDATE = "*** Update File:"
MOVE = "*** Move to:"
END_OF_FILE = "*** End of File"

# A unified-diff range ("@@ -12,5 +12,6 @@ def f():") carries no usable anchor but its trailing text.
_UNIFIED_RANGE = re.compile(r"^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@\s?(.*)$")


_LINE_KINDS: dict[str, Literal[" ", "-", "+"]] = {" ": " ", "-": "-", "+": "+"}


class PatchSyntaxError(ToolError):
    """The patch text does not follow the envelope format."""


@dataclass(frozen=True)
class HunkLine:
    """One body line of a hunk: context (" "), removed ("-") or added ("+")."""

    kind: Literal[" ", "-", "+"]
    text: str


@dataclass(frozen=True)
class Hunk:
    """A contiguous change: optional `@@` anchors, then lines to find and what replaces them."""

    headers: tuple[str, ...]
    lines: tuple[HunkLine, ...]
    end_of_file: bool = False

    @property
    def old_lines(self) -> tuple[str, ...]:
        """The lines that must be found in the file (context and removed)."""
        return tuple(line.text for line in self.lines if line.kind != "+")


@dataclass(frozen=True)
class AddFile:
    """Create a file that must not exist yet."""

    path: str
    content: str


@dataclass(frozen=True)
class DeleteFile:
    """Remove a file that must exist."""

    path: str


@dataclass(frozen=True)
class UpdateFile:
    """Edit a file in place, optionally moving it to `move_to`."""

    path: str
    hunks: tuple[Hunk, ...]
    move_to: str | None = None


FileOp = AddFile | DeleteFile | UpdateFile


@dataclass(frozen=True)
class Patch:
    """Every file operation of one patch, in order."""

    ops: tuple[FileOp, ...]


def patch_paths(text: str) -> tuple[str, ...]:
    """The paths a patch's file headers name, in order, each once (no validation: for display)."""
    found: dict[str, None] = {}
    for line in text.splitlines():
        for prefix in (ADD, DELETE, UPDATE, MOVE):
            if line.startswith(prefix) and line[len(prefix) :].strip():
                found[line[len(prefix) :].strip()] = None
    return tuple(found)


def parse_patch(text: str) -> Patch:
    """Parse a whole patch; a malformed one raises `PatchSyntaxError` naming the line."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    start, stop = 0, len(lines)
    while start < stop and not lines[start].strip():
        start += 1
    while stop > start and not lines[stop - 1].strip():
        stop -= 1
    if start == stop or lines[start].strip() != BEGIN:
        raise PatchSyntaxError(f"invalid patch: the first line must be '{BEGIN}'")
    if stop - start < 2 or lines[stop - 1].strip() != END:
        raise PatchSyntaxError(f"invalid patch: the last line must be '{END}'")
    ops: list[FileOp] = []
    index = start + 1
    body_end = stop - 1
    while index < body_end:
        line = lines[index]
        op: FileOp
        if line.startswith(ADD):
            index, op = _parse_add(lines, index, body_end)
        elif line.startswith(DELETE):
            op = DeleteFile(_path_of(line, DELETE, index))
            index += 1
        elif line.startswith(UPDATE):
            index, op = _parse_update(lines, index, body_end)
        elif not line.strip():
            index += 1
            continue
        else:
            raise _error(
                index, f"expected '{ADD} <path>', '{UPDATE} <path>' or '{DELETE} <path>', got {line!r}"
            )
        ops.append(op)
    if not ops:
        raise PatchSyntaxError("invalid patch: it contains no file operations")
    return Patch(tuple(ops))


def _parse_add(lines: list[str], index: int, end: int) -> tuple[int, AddFile]:
    path = _path_of(lines[index], ADD, index)
    index += 1
    content: list[str] = []
    blank_run = 0
    while index < end and not lines[index].startswith("*** "):
        line = lines[index]
        if line.startswith("+"):
            # Bare empty lines between "+" lines were meant as empty lines of the file.
            content.extend([""] * blank_run + [line[1:]])
            blank_run = 0
        elif not line.strip():
            blank_run += 1
        else:
            raise _error(index, f"every line of an added file must start with '+', got {line!r}")
        index += 1
    text = "".join(f"{line}\n" for line in content)
    return index, AddFile(path, text)


def _parse_update(lines: list[str], index: int, end: int) -> tuple[int, UpdateFile]:
    path = _path_of(lines[index], UPDATE, index)
    index += 1
    move_to: str | None = None
    if index < end and lines[index].startswith(MOVE):
        move_to = _path_of(lines[index], MOVE, index)
        index += 1
    hunks: list[Hunk] = []
    builder = _HunkBuilder()
    while index < end:
        line = lines[index]
        if line.rstrip() == END_OF_FILE:
            if not builder.body:
                raise _error(index, f"'{END_OF_FILE}' must follow the lines of a hunk")
            hunks.append(builder.build(end_of_file=True))
            builder = _HunkBuilder()
        elif line.startswith("*** "):
            break
        elif line.startswith("@@"):
            if builder.body:
                hunks.append(builder.build())
                builder = _HunkBuilder()
            builder.add_header(line[2:].strip())
        elif (kind := _LINE_KINDS.get(line[:1])) is not None:
            builder.add(HunkLine(kind, line[1:]), bare=False)
        elif line == "":
            # Models drop the leading space of empty context lines; read them as context.
            builder.add(HunkLine(" ", ""), bare=True)
        else:
            raise _error(
                index,
                f"unexpected line {line!r} in a hunk of {path}: hunk lines start with ' ' "
                "(context), '-' (removed), '+' (added) or '@@' (a new hunk)",
            )
        index += 1
    if builder.body:
        hunks.append(builder.build(trim_bare_tail=True))
    elif builder.headers:
        raise _error(index - 1, f"the last hunk of {path} has an '@@' line but no body lines")
    if not hunks and move_to is None:
        raise PatchSyntaxError(f"invalid patch: '{UPDATE} {path}' has no hunks")
    return index, UpdateFile(path, tuple(hunks), move_to)


class _HunkBuilder:
    def __init__(self) -> None:
        self.headers: list[str] = []
        self.body: list[HunkLine] = []
        self.bare: list[bool] = []

    def add_header(self, header: str) -> None:
        unified = _UNIFIED_RANGE.match(header)
        if unified is not None:
            header = unified.group(1).strip()
        if header:
            self.headers.append(header)

    def add(self, line: HunkLine, *, bare: bool) -> None:
        self.body.append(line)
        self.bare.append(bare)

    def build(self, *, end_of_file: bool = False, trim_bare_tail: bool = False) -> Hunk:
        body = list(self.body)
        if trim_bare_tail:
            # Blank lines before the next "***" separate sections; they are not file content.
            while len(body) > 1 and self.bare[len(body) - 1]:
                body.pop()
        return Hunk(tuple(self.headers), tuple(body), end_of_file)


def _path_of(line: str, prefix: str, index: int) -> str:
    path = line[len(prefix) :].strip()
    if not path:
        raise _error(index, f"'{prefix}' needs a path")
    return path


def _error(index: int, message: str) -> PatchSyntaxError:
    return PatchSyntaxError(f"invalid patch: line {index + 1}: {message}")
