"""`apply_patch`: add, update, move and delete workspace files from one patch, all or nothing.

The whole patch is planned in memory first (every path confined, every hunk located); only when
all of it applies are the files written, through `file_transaction`, which undoes a half-done write.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from vtcode.core.diff import unified_diff
from vtcode.protocol.errors import ToolError
from vtcode.protocol.events import FileChange
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.atomic_write import file_mode
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome
from vtcode.tools.file_transaction import FileEdit, commit
from vtcode.tools.patch_apply import apply_hunks
from vtcode.tools.patch_parse import (
    AddFile,
    DeleteFile,
    FileOp,
    Patch,
    UpdateFile,
    parse_patch,
    patch_paths,
)
from vtcode.tools.regular_file import open_regular
from vtcode.tools.workspace import WorkspacePath, resolve

_DESCRIPTION = """\
Edit workspace files with a patch. The patch is applied completely or not at all. Format:

*** Begin Patch
*** Add File: path/new.py
+first line of the new file
+second line
*** Update File: path/existing.py
@@ def function_containing_the_change():
 context line (unchanged, starts with a space)
-line to remove
+line to add
 context line
*** Delete File: path/obsolete.py
*** End Patch

Rules:
- Paths are relative to the workspace root. Never use line numbers.
- In an Update File section, every line starts with ' ' (context), '-' (remove) or '+' (add). \
Give about 3 lines of context before and after each change, copied exactly from the file.
- Start each hunk with '@@' or with '@@ <a line of the file>' (such as a class or def line) when \
the context alone could match in more than one place; hunks must be in file order.
- To rename, put '*** Move to: new/path' directly after '*** Update File: old/path'.
- '*** End of File' after a hunk's last line anchors the hunk at the end of the file.
- Read the file first; if a hunk does not match, re-read it and retry with the current lines."""

_SPEC = ToolSpec(
    name="apply_patch",
    description=_DESCRIPTION,
    parameters={
        "type": "object",
        "properties": {
            "patch": {
                "type": "string",
                "description": "The whole patch, from '*** Begin Patch' to '*** End Patch'.",
            },
        },
        "required": ["patch"],
        "additionalProperties": False,
    },
)


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    patch: str


class ApplyPatchTool:
    """Applies a Codex-style patch envelope to workspace files atomically."""

    @property
    def spec(self) -> ToolSpec:
        """Name, description and JSON Schema parameters."""
        return _SPEC

    @property
    def kind(self) -> ToolKind:
        """Patching changes the workspace."""
        return "edit"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The files the patch names."""
        patch = arguments.get("patch") or arguments.get("input")
        paths = patch_paths(patch) if isinstance(patch, str) else ()
        return CallDescription(display=", ".join(paths) or "patch", paths=paths)

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Apply the patch and report the changes, or change nothing and return an error outcome."""
        try:
            args = parse_arguments(arguments, _Args)
            patch = parse_patch(args.patch)
            plan = await asyncio.to_thread(_plan, ctx.workspace, patch)
            await asyncio.to_thread(commit, plan.edits())
        except ToolError as exc:
            return ToolOutcome(content=f"apply_patch: {exc.message}", is_error=True)
        except OSError as exc:
            # The workspace changing under the call (a file removed, a permission) is data too.
            return ToolOutcome(content=f"apply_patch: {exc}", is_error=True)
        return ToolOutcome(
            content="Success. Updated: " + ", ".join(plan.summary),
            touched_paths=tuple(dict.fromkeys(plan.touched)),
            changes=tuple(plan.changes),
        )


@dataclass
class _Staged:
    display: str
    original: bytes | None
    mode: int | None
    current: bytes | None


@dataclass
class _Plan:
    """The patch's effect in memory: each touched file's original and final bytes, in first-touch order."""

    files: dict[Path, _Staged] = field(default_factory=dict)
    summary: list[str] = field(default_factory=list)
    changes: list[FileChange] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)

    def load(self, target: WorkspacePath) -> _Staged:
        """The file as earlier operations of this patch left it (read from disk on first use)."""
        staged = self.files.get(target.real)
        if staged is None:
            original = _read(target)
            staged = _Staged(target.display, original, file_mode(target.real), original)
            self.files[target.real] = staged
        return staged

    def edits(self) -> list[FileEdit]:
        """What must be written, leaving out files whose final bytes equal their original ones."""
        return [
            FileEdit(path, staged.display, staged.original, staged.current, staged.mode)
            for path, staged in self.files.items()
            if staged.current != staged.original
        ]


def _plan(workspace: Path, patch: Patch) -> _Plan:
    plan = _Plan()
    for op in patch.ops:
        _plan_op(workspace, plan, op)
    return plan


def _plan_op(workspace: Path, plan: _Plan, op: FileOp) -> None:
    target = resolve(workspace, op.path, for_write=True)
    staged = plan.load(target)
    if isinstance(op, AddFile):
        if staged.current is not None:
            raise ToolError(
                f"cannot add {target.display}: it already exists; "
                "use '*** Update File:' to change it, or delete it first"
            )
        staged.current = op.content.encode("utf-8")
        added = FileChange(target.display, "add", diff=unified_diff(target.display, "", op.content))
        _record(plan, f"A {target.display}", added, target.display)
    elif isinstance(op, DeleteFile):
        _require_existing(staged, target, "delete")
        _refuse_symlink(target, op.path, "delete")
        staged.current = None
        _record(plan, f"D {target.display}", FileChange(target.display, "delete"), target.display)
    else:
        _plan_update(workspace, plan, op, target, staged)


def _plan_update(
    workspace: Path, plan: _Plan, op: UpdateFile, target: WorkspacePath, staged: _Staged
) -> None:
    current = _require_existing(staged, target, "update")
    try:
        text = current.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(
            f"cannot update {target.display}: it is not UTF-8 text; apply_patch edits text files only"
        ) from None
    new_text = apply_hunks(text, op.hunks, target.display)
    new = new_text.encode("utf-8")
    diff = unified_diff(target.display, text, new_text)
    if op.move_to is None:
        staged.current = new
        change = FileChange(target.display, "update", diff=diff)
        _record(plan, f"M {target.display}", change, target.display)
        return
    destination = resolve(workspace, op.move_to, for_write=True)
    if destination.real == target.real:
        staged.current = new
        change = FileChange(target.display, "update", diff=diff)
        _record(plan, f"M {target.display}", change, target.display)
        return
    _refuse_symlink(target, op.path, "move")
    moved = plan.load(destination)
    if moved.current is not None:
        raise ToolError(
            f"cannot move {target.display} to {destination.display}: the destination already exists"
        )
    staged.current = None
    moved.current = new
    moved.mode = staged.mode
    change = FileChange(target.display, "move", move_to=destination.display, diff=diff)
    _record(plan, f"R {target.display} -> {destination.display}", change, target.display)
    plan.touched.append(destination.display)


def _record(plan: _Plan, summary: str, change: FileChange, touched: str) -> None:
    plan.summary.append(summary)
    plan.changes.append(change)
    plan.touched.append(touched)


def _require_existing(staged: _Staged, target: WorkspacePath, verb: str) -> bytes:
    if staged.current is None:
        raise ToolError(f"cannot {verb} {target.display}: no such file (use list_files to find the path)")
    return staged.current


def _refuse_symlink(target: WorkspacePath, raw: str, verb: str) -> None:
    # The link's target was resolved for reading; removing or renaming it would act on the target
    # instead of the link, which is not what a patch naming the link means.
    if os.path.islink(target.lexical):
        raise ToolError(
            f"cannot {verb} {raw}: it is a symbolic link (to {target.display}); use a shell command for links"
        )


def _read(target: WorkspacePath) -> bytes | None:
    try:
        with open_regular(target.real, target.display) as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise ToolError(f"{target.display} is a directory, not a file") from None
    except OSError as exc:
        raise ToolError(f"cannot read {target.display}: {exc.strerror or exc}") from None
