"""Writing a set of file edits all or nothing: on a failure, files already changed are restored."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vtcode.protocol.errors import ToolError
from vtcode.tools.atomic_write import fsync_directory, write_atomic

log = logging.getLogger(__name__)


class TransactionError(ToolError):
    """An edit could not be written; the message says whether every earlier edit was undone."""


@dataclass(frozen=True)
class FileEdit:
    """The final state of one file: `new` bytes, or None to delete it."""

    path: Path
    display: str
    # None: the file did not exist before.
    original: bytes | None
    new: bytes | None
    # Permission bits to give the written file (the original's, or the move source's).
    mode: int | None = None


def commit(edits: Sequence[FileEdit]) -> None:
    """Write every edit in order; if one fails, restore the earlier ones and raise `TransactionError`."""
    done: list[FileEdit] = []
    created_dirs: list[Path] = []
    for edit in edits:
        try:
            _apply(edit, created_dirs)
        except OSError as exc:
            failed = _rollback(done, created_dirs)
            reason = exc.strerror or str(exc)
            if failed:
                raise TransactionError(
                    f"writing {edit.display} failed ({reason}); restoring also failed for "
                    f"{', '.join(failed)}, so those files may be in their new state"
                ) from None
            raise TransactionError(f"writing {edit.display} failed ({reason}); no file was changed") from None
        done.append(edit)


def _apply(edit: FileEdit, created_dirs: list[Path]) -> None:
    if edit.new is None:
        os.unlink(edit.path)
        fsync_directory(edit.path.parent)
        return
    _make_parents(edit.path.parent, created_dirs)
    write_atomic(edit.path, edit.new, mode=edit.mode)


def _make_parents(directory: Path, created_dirs: list[Path]) -> None:
    missing: list[Path] = []
    while not directory.exists():
        missing.append(directory)
        directory = directory.parent
    for path in reversed(missing):
        os.mkdir(path)
        created_dirs.append(path)


def _rollback(done: Sequence[FileEdit], created_dirs: list[Path]) -> list[str]:
    """Undo `done` newest first; returns the display paths that could not be restored."""
    failed: list[str] = []
    for edit in reversed(done):
        try:
            if edit.original is None:
                os.unlink(edit.path)
            else:
                write_atomic(edit.path, edit.original, mode=edit.mode)
        except OSError as exc:
            log.error("could not restore %s: %s", edit.path, exc)
            failed.append(edit.display)
    for directory in reversed(created_dirs):
        with contextlib.suppress(OSError):
            os.rmdir(directory)
    return failed
