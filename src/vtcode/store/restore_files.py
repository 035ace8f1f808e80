"""Putting one workspace file back into a recorded state, atomically (old bytes or new, never a mix)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from glob import escape as glob_escape
from pathlib import Path, PurePosixPath

from vtcode.core.rewind_plan import FileState
from vtcode.store.atomic import fsync_dir, write_all

_SUFFIX = ".vtcode-restore"


class UnsafePathError(ValueError):
    """A recorded path that would lead outside the workspace."""


def workspace_path(workspace: Path, rel: str) -> Path:
    """`rel` under `workspace`, refusing `..` and parents that leave the workspace.

    An absolute path is a file vtcode edited in an added folder (`--add-dir`), recorded where it
    really was: it is used only while its folder still is that place (no link put in the way since).
    """
    parts = PurePosixPath(rel).parts
    if not parts or ".." in parts:
        raise UnsafePathError(f"not a workspace path: {rel!r}")
    if PurePosixPath(rel).is_absolute():
        absolute = Path(rel)
        if os.path.realpath(absolute.parent) != str(absolute.parent):
            raise UnsafePathError(f"{rel!r}: its folder is not where vtcode edited it")
        return absolute
    path = workspace.joinpath(*parts)
    root = os.path.realpath(workspace)
    parent = os.path.realpath(path.parent)
    if parent != root and not parent.startswith(root.rstrip("/") + "/"):
        raise UnsafePathError(f"{rel!r} leads outside the workspace")
    return path


def put_in_place(workspace: Path, rel: str, state: FileState | None, data: bytes | None) -> None:
    """Make `rel` be `state` with content `data` (None state: remove it); raises `OSError`."""
    path = workspace_path(workspace, rel)
    if state is None:
        if os.path.lexists(path) and not (path.is_dir() and not path.is_symlink()):
            path.unlink()
            fsync_dir(path.parent)
        return
    if data is None:
        raise OSError(f"the content of {rel} is not in the checkpoint store")
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir() and not path.is_symlink():
        # A folder made where the file was: gone once emptied of what the rewind removes. A folder
        # still holding files fails here, before anything is replaced (`rmdir` removes only empty ones).
        try:
            path.rmdir()
        except OSError as err:
            raise OSError(err.errno, f"{rel} is a folder with files in it now; move them away") from err
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=_SUFFIX, dir=path.parent)
    try:
        if state.link:
            os.close(fd)
            os.unlink(tmp_name)
            os.symlink(os.fsdecode(data), tmp_name)
        else:
            try:
                write_all(fd, data)
                os.fchmod(fd, state.mode & 0o7777)
                os.fsync(fd)
            finally:
                os.close(fd)
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    fsync_dir(path.parent)


def remove_leftovers(workspace: Path, rel: str) -> None:
    """Remove the temporary files a killed restore of `rel` left next to it."""
    path = workspace_path(workspace, rel)
    for stray in path.parent.glob(f".{glob_escape(path.name)}.*{_SUFFIX}"):
        with contextlib.suppress(OSError):
            stray.unlink()
