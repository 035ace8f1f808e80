"""`read_file`: a numbered window of a text file, sized to the model's output budget."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path
from typing import Annotated, Any, BinaryIO

import msgspec

from vtcode.protocol.errors import ToolError
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.file_tool import (
    FILE_TOOL_ERRORS,
    FilePath,
    NamesOnePath,
    count_limit,
    failure,
)
from vtcode.tools.output_limit import NOTE_RESERVE_BYTES, clip_utf8
from vtcode.tools.regular_file import open_regular
from vtcode.tools.workspace import resolve

DEFAULT_LIMIT = 2000
# Same window as git and ripgrep use to call a file binary.
BINARY_SNIFF_BYTES = 8192
# The piece size in which lines before the window, and the unshown rest of a long line, are skipped.
_SKIP_BYTES = 1 << 20


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    path: FilePath
    offset: (
        Annotated[int, msgspec.Meta(ge=1, description="1-based line number to start from (default 1).")]
        | None
    ) = None
    limit: Annotated[int, count_limit("lines", DEFAULT_LIMIT)] | None = None


_SPEC = ToolSpec(
    name="read_file",
    description=(
        "Read a text file from the workspace. Lines come back numbered like `cat -n` "
        "(line number, a tab, then the line); the numbers are not part of the file, so never copy "
        "them into an edit. By default up to 2000 lines from the start are returned; for a large file "
        "pass `offset` (1-based first line) and `limit` (number of lines). When the output is cut, "
        "its last line says which offset to use to continue. Binary files are refused."
    ),
    parameters=tool_parameters(_Args),
)


class _Page(msgspec.Struct, frozen=True):
    text: str
    first: int
    last: int
    total: int


class ReadFileTool(NamesOnePath):
    """Reads a window of a workspace text file with `cat -n` style line numbers."""

    spec = _SPEC
    # Reading never changes the workspace.
    kind: ToolKind = "read"

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Return the requested lines, or an error outcome the model can correct."""
        try:
            args = parse_arguments(arguments, _Args)
            target = resolve(ctx.workspace, args.path, extra_roots=ctx.extra_roots)
            offset = args.offset or 1
            limit = args.limit or DEFAULT_LIMIT
            buffer = await ctx.buffers.read_text(target.real) if ctx.buffers is not None else None
            if buffer is not None and "\0" not in buffer[:BINARY_SNIFF_BYTES]:
                # The editor's text (unsaved edits included) is what the user sees, so the model too.
                handle = io.BytesIO(buffer.encode("utf-8", errors="surrogatepass"))
                page = _page_of(handle, target.display, offset, limit, ctx.max_output_bytes)
            else:
                page = await asyncio.to_thread(
                    _read_page, target.real, target.display, offset, limit, ctx.max_output_bytes
                )
        except FILE_TOOL_ERRORS as exc:
            return failure("read_file", exc)
        extra = {"offset": page.first, "end_line": page.last, "total_lines": page.total}
        return ToolOutcome(content=page.text, touched_paths=(target.display,), extra=extra)


def _read_page(real: Path, display: str, offset: int, limit: int, max_bytes: int) -> _Page:
    try:
        with open_regular(real, display) as handle:
            return _page_of(handle, display, offset, limit, max_bytes)
    except FileNotFoundError:
        raise ToolError(f"file not found: {display} (use list_files to find the path)") from None
    except IsADirectoryError:
        raise ToolError(f"{display} is a directory; use list_files to see its files") from None
    except OSError as exc:
        raise ToolError(f"cannot read {display}: {exc.strerror}") from None


def _page_of(handle: BinaryIO, display: str, offset: int, limit: int, max_bytes: int) -> _Page:
    if b"\0" in handle.read(BINARY_SNIFF_BYTES):
        size = os.fstat(handle.fileno()).st_size
        raise ToolError(f"{display}: binary file, {size} bytes; read_file shows text files only")
    handle.seek(0)
    budget = max(1, max_bytes - NOTE_RESERVE_BYTES)
    shown: list[str] = []
    used = 0
    last = offset - 1
    number = 0
    while number + 1 < offset:
        if _next_line(handle, 0) is None:
            return _finish(display, shown, offset, last, number)
        number += 1
    # A shown line never needs more than the budget (plus its ending); the rest of it is skipped.
    cap = budget + 2
    while number + 1 < offset + limit:
        line = _next_line(handle, cap)
        if line is None:
            # The whole rest of the file was consumed: `number` is the line count.
            return _finish(display, shown, offset, last, number)
        number += 1
        head, length = line
        prefix = f"{number:>6}\t"
        text = _decode_line(head)
        size = len(prefix.encode()) + len(text.encode("utf-8", errors="surrogatepass")) + 1
        if length > len(head.rstrip(b"\n")) or used + size > budget:
            if not shown:
                # A single line larger than the budget (minified code) still shows its head.
                marker = f" …[line cut: {length:,} bytes in all]"
                shown.append(prefix + clip_utf8(text, budget - len(prefix), suffix=marker))
                last = number
            break
        shown.append(prefix + text)
        used += size
        last = number
    total = number + _count_remaining_lines(handle)
    return _finish(display, shown, offset, last, total)


def _next_line(handle: BinaryIO, cap: int) -> tuple[bytes, int] | None:
    """The next line's first `cap` bytes and the line's whole length (ending excluded); None at the end.

    Memory stays bounded whatever the line's length: a 200 MB minified line costs one read buffer.
    """
    head = handle.readline(cap) if cap else b""
    if head.endswith(b"\n"):
        return head, len(head) - 1
    if cap and len(head) < cap:
        return (head, len(head)) if head else None
    length = len(head)
    while piece := handle.readline(_SKIP_BYTES):
        if piece.endswith(b"\n"):
            return head, length + len(piece) - 1
        length += len(piece)
    return (head, length) if length else None


def _finish(display: str, shown: list[str], offset: int, last: int, total: int) -> _Page:
    if total == 0:
        return _Page(text=f"[{display} is empty: 0 lines]", first=1, last=0, total=0)
    if offset > total:
        raise ToolError(
            f"offset {offset} is past the end of {display}, which has {total} lines; "
            f"use an offset between 1 and {total}"
        )
    text = "\n".join(shown)
    if last < total:
        text += (
            f"\n[truncated: showing lines {offset}-{last} of {total}; "
            f"call read_file with offset={last + 1} to continue]"
        )
    return _Page(text=text, first=offset, last=last, total=total)


def _decode_line(raw: bytes) -> str:
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    return raw.decode("utf-8", errors="replace")


def _count_remaining_lines(handle: BinaryIO) -> int:
    # Counting newlines in big blocks is far cheaper than iterating the rest line by line.
    count = 0
    tail = b""
    while chunk := handle.read(1 << 20):
        count += chunk.count(b"\n")
        tail = chunk
    if tail and not tail.endswith(b"\n"):
        count += 1
    return count
