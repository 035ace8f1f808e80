"""Writing a set of file edits all or nothing: on a failure, files already changed are restored."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vtcode.protocol.errors import ToolError
from vtcode.tools.beneath import (
    PathChangedError,
    relative_parts,
    remove_file,
    replace_file,
    temp_name,
)
from vtcode.tools.patch_journal import PlannedWrite, journaled, remove_created, restore

log = logging.getLogger(__name__)


class TransactionError(ToolError):
    """An edit could not be written; the message says whether every earlier edit was undone."""


@dataclass(frozen=True)
class FileEdit:
    """The final state of one file: `new` bytes, or None to delete it."""

    # The resolved location (for people and logs); I/O goes by `display` below the root.
    path: Path
    # The resolved workspace-relative path.
    display: str
    # None: the file did not exist before.
    original: bytes | None
    new: bytes | None
    # Permission bits to give the written file (the original's, or the move source's).
    mode: int | None = None


def commit(
    root: Path,
    edits: Sequence[FileEdit],
    *,
    journal_dir: Path | None = None,
    session_workspace: Path | None = None,
) -> None:
    """Write every edit in order; if one fails, restore the earlier ones and raise `TransactionError`.

    `root` is the resolved workspace root; each edit's `display` is its resolved path below it, and
    every write goes through directory descriptors walked from `root` (`beneath`). With a
    `journal_dir`, an undo journal makes the set all or nothing across a crash too (`patch_journal`);
    `session_workspace` is the session's workspace when `root` is an added folder.
    """
    writes = [
        PlannedWrite(
            edit.display, edit.original, edit.new, edit.mode, temp_name(relative_parts(edit.display)[-1])
        )
        for edit in edits
    ]
    with journaled(journal_dir, root, writes, session_workspace=session_workspace):
        _commit(root, edits, [write.tmp for write in writes])


def _commit(root: Path, edits: Sequence[FileEdit], temps: Sequence[str]) -> None:
    done: list[FileEdit] = []
    created_dirs: list[str] = []
    for edit, tmp in zip(edits, temps, strict=True):
        try:
            _apply(root, edit, tmp, created_dirs)
        except (OSError, PathChangedError) as exc:
            failed = _rollback(root, done, created_dirs)
            reason = exc.message if isinstance(exc, ToolError) else exc.strerror or str(exc)
            if failed:
                raise TransactionError(
                    f"writing {edit.display} failed ({reason}); restoring also failed for "
                    f"{', '.join(failed)}, so those files may be in their new state"
                ) from None
            raise TransactionError(f"writing {edit.display} failed ({reason}); no file was changed") from None
        done.append(edit)


def _apply(root: Path, edit: FileEdit, tmp: str, created_dirs: list[str]) -> None:
    if edit.new is None:
        remove_file(root, edit.display)
        return
    replace_file(root, edit.display, edit.new, mode=edit.mode, created=created_dirs, tmp=tmp)


def _rollback(root: Path, done: Sequence[FileEdit], created_dirs: list[str]) -> list[str]:
    """Undo `done` newest first; returns the display paths that could not be restored."""
    failed: list[str] = []
    for edit in reversed(done):
        try:
            restore(root, edit.display, edit.original, edit.mode)
        except (OSError, ToolError) as exc:
            log.error("could not restore %s: %s", edit.display, exc)
            failed.append(edit.display)
    remove_created(root, created_dirs)
    return failed
