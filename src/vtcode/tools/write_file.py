"""`write_file`: create or overwrite one workspace file with given text, atomically."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from vtcode.core.diff import unified_diff
from vtcode.protocol.errors import ToolError
from vtcode.protocol.events import FileChange
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.beneath import entry_stat, read_bytes, replace_file
from vtcode.tools.file_tool import FILE_TOOL_ERRORS, FilePath, NamesOnePath, failure
from vtcode.tools.regular_file import not_regular_error
from vtcode.tools.workspace import resolve, workspace_root


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    path: FilePath
    content: Annotated[str, msgspec.Meta(description="The complete new content of the file.")]


_SPEC = ToolSpec(
    name="write_file",
    description=(
        "Write a whole file in the workspace: create it (with any missing parent directories) or "
        "replace all of its content. The file is replaced atomically. Prefer apply_patch for "
        "changing part of an existing file; use write_file for new files or complete rewrites."
    ),
    parameters=tool_parameters(_Args),
)


class WriteFileTool(NamesOnePath):
    """Creates or replaces a workspace file atomically, creating parent directories."""

    spec = _SPEC
    # Writing changes the workspace.
    kind: ToolKind = "edit"

    def preview(
        self, arguments: dict[str, Any], workspace: Path, extra_roots: tuple[Path, ...] = ()
    ) -> tuple[FileChange, ...]:
        """The file as it would change: a diff against its text now, or the whole new file's lines."""
        try:
            args = parse_arguments(arguments, _Args)
            target = resolve(workspace, args.path, for_write=True, extra_roots=extra_roots)
            root, below = target.under(workspace_root(workspace))
            entry = entry_stat(root, below)
        except (ToolError, OSError):
            return ()
        if entry is not None and not stat.S_ISREG(entry.st_mode):
            return ()  # the call itself will fail and say why
        before = _previous_text(root, below, entry) if entry is not None else ""
        kind: Literal["add", "update"] = "update" if entry is not None else "add"
        return (FileChange(path=target.display, kind=kind, diff=_diff(target.display, before, args.content)),)

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Write the file and report it as a `FileChange`, or return an error outcome."""
        try:
            args = parse_arguments(arguments, _Args)
            target = resolve(ctx.workspace, args.path, for_write=True, extra_roots=ctx.extra_roots)
            data = _encode(args.content)
            root, below = target.under(workspace_root(ctx.workspace))
            kind, before = await asyncio.to_thread(_write, root, below, target.display, data)
        except FILE_TOOL_ERRORS as exc:
            return failure("write_file", exc)
        verb = "Created" if kind == "add" else "Updated"
        lines = args.content.count("\n") + (0 if args.content.endswith("\n") or not data else 1)
        return ToolOutcome(
            # The path is the model's own argument and the `file_change` event carries it: no echo.
            content=f"{verb} ({len(data)} bytes, {lines} lines).",
            touched_paths=(target.display,),
            changes=(
                FileChange(path=target.display, kind=kind, diff=_diff(target.display, before, args.content)),
            ),
        )


# Files over this size get no diff: reading them again would cost more than the diff is worth.
_DIFF_MAX_BYTES = 256 * 1024


def _diff(path: str, before: str | None, after: str) -> str | None:
    if before is None or len(after) > _DIFF_MAX_BYTES:
        return None
    return unified_diff(path, before, after)


def _encode(content: str) -> bytes:
    try:
        return content.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ToolError(f"content is not valid Unicode text: {exc.reason}") from None


def _write(root: Path, below: str, display: str, data: bytes) -> tuple[Literal["add", "update"], str | None]:
    """Write `data`; the kind of change and, for text files of modest size, the previous text.

    Every step works relative to directory descriptors walked from the workspace root (`beneath`), so
    a directory swapped for a link while the call runs fails it instead of redirecting the write.
    """
    entry = entry_stat(root, below)
    if entry is not None and stat.S_ISDIR(entry.st_mode):
        raise ToolError(f"{display} is a directory; give a file path")
    # Replacing a named pipe or device by a file is never what writing "a file" means.
    if entry is not None and not stat.S_ISREG(entry.st_mode):
        raise not_regular_error(display, entry.st_mode)
    mode = stat.S_IMODE(entry.st_mode) if entry is not None else None
    before = _previous_text(root, below, entry) if entry is not None else ""
    try:
        replace_file(root, below, data, mode=mode)
    except (FileExistsError, NotADirectoryError):
        raise ToolError(
            f"cannot create {display}: one of its parent paths is a file, not a directory"
        ) from None
    except OSError as exc:
        raise ToolError(f"cannot write {display}: {exc.strerror or exc}") from None
    return ("add" if entry is None else "update"), before


def _previous_text(root: Path, display: str, entry: os.stat_result) -> str | None:
    """The file's text before the write, for the diff shown to people; None for big or binary files."""
    if entry.st_size > _DIFF_MAX_BYTES:
        return None
    try:
        data = read_bytes(root, display)
        return None if data is None else data.decode("utf-8")
    except (OSError, UnicodeDecodeError, ToolError):
        return None
