"""The in-memory effect of a parsed patch on workspace files, checked before anything is written.

Imported when `apply_patch` first runs, not when its spec is offered (start-up time).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from vtcode.core.diff import unified_diff
from vtcode.protocol.errors import ToolError
from vtcode.protocol.events import FileChange
from vtcode.tools.beneath import entry_stat, read_bytes
from vtcode.tools.file_transaction import FileEdit
from vtcode.tools.patch_apply import apply_hunks
from vtcode.tools.patch_parse import AddFile, DeleteFile, FileOp, Patch, UpdateFile
from vtcode.tools.workspace import WorkspacePath, resolve, workspace_root


@dataclass
class _Staged:
    # The path below the plan's root the I/O goes by (`beneath`).
    display: str
    original: bytes | None
    mode: int | None
    current: bytes | None


@dataclass
class PatchPlan:
    """The patch's effect in memory: each touched file's original and final bytes, in first-touch order."""

    root: Path
    # The added folders (`--add-dir`) paths may name besides the workspace.
    extra_roots: tuple[Path, ...] = ()
    # The workspace root; `root` becomes the folder of the patch's first file (an added one, maybe).
    home: Path | None = None
    claimed: bool = False
    files: dict[Path, _Staged] = field(default_factory=dict)
    summary: list[str] = field(default_factory=list)
    changes: list[FileChange] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)

    def load(self, target: WorkspacePath) -> _Staged:
        """The file as earlier operations of this patch left it (read from disk on first use)."""
        staged = self.files.get(target.real)
        if staged is None:
            root, below = self._under(target)
            original, mode = _read(root, below, target.display)
            staged = _Staged(below, original, mode, original)
            self.files[target.real] = staged
        return staged

    def _under(self, target: WorkspacePath) -> tuple[Path, str]:
        """Where `target` is read and written from; every file of one patch shares one root."""
        root, below = target.under(self.home or self.root)
        if not self.claimed:
            self.root, self.claimed = root, True
        elif root != self.root:
            # One transaction walks from one root: its rollback and journal are per root.
            raise ToolError(
                f"cannot patch {target.display} together with files outside its folder; "
                "send one patch per folder (the workspace, or each added folder)"
            )
        return root, below

    def edits(self) -> list[FileEdit]:
        """What must be written, leaving out files whose final bytes equal their original ones."""
        return [
            FileEdit(path, staged.display, staged.original, staged.current, staged.mode)
            for path, staged in self.files.items()
            if staged.current != staged.original
        ]


def plan_patch(workspace: Path, patch: Patch, extra_roots: tuple[Path, ...] = ()) -> PatchPlan:
    """What `patch` does to the files of `workspace`; raises `ToolError` for a patch that cannot apply."""
    home = workspace_root(workspace)
    plan = PatchPlan(home, extra_roots, home)
    for op in patch.ops:
        _plan_op(workspace, plan, op)
    return plan


def _plan_op(workspace: Path, plan: PatchPlan, op: FileOp) -> None:
    target = resolve(workspace, op.path, for_write=True, extra_roots=plan.extra_roots)
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
    workspace: Path, plan: PatchPlan, op: UpdateFile, target: WorkspacePath, staged: _Staged
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
    destination = resolve(workspace, op.move_to, for_write=True, extra_roots=plan.extra_roots)
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


def _record(plan: PatchPlan, summary: str, change: FileChange, touched: str) -> None:
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


def _read(root: Path, below: str, display: str) -> tuple[bytes | None, int | None]:
    """The pre-image and permission bits, read relative to directory descriptors (`beneath`)."""
    try:
        entry = entry_stat(root, below)
        if entry is None:
            return None, None
        if stat.S_ISDIR(entry.st_mode):
            raise ToolError(f"{display} is a directory, not a file")
        return read_bytes(root, below), stat.S_IMODE(entry.st_mode)
    except IsADirectoryError:
        raise ToolError(f"{display} is a directory, not a file") from None
    except OSError as exc:
        raise ToolError(f"cannot read {display}: {exc.strerror or exc}") from None
