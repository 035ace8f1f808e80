"""Crash-safe replacement of small files: a reader sees the old bytes or the new bytes, never a mix."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from vtcode.store.errors import store_error


def atomic_write(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace `path` with `data` durably (temp file, fsync, rename, fsync of the directory).

    The new file is private (0600) unless `mode` is given.

    Raises `StoreError` on any file-system failure; the temp file is removed and `path` keeps its old
    content unless the rename already happened.
    """
    directory = path.parent
    try:
        # Same directory as the target, so os.replace is a rename within one file system.
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as err:
        raise store_error(err, "create a temporary file for", path) from err
    tmp = Path(tmp_name)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        _write_and_close(fd, data)
        os.replace(tmp, path)
    except OSError as err:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise store_error(err, "write", path) from err
    try:
        fsync_dir(directory)
    except OSError as err:
        # The new content is in place but its directory entry may not survive a power loss.
        raise store_error(err, "sync the directory of", path) from err


def fsync_dir(directory: Path) -> None:
    """Make a directory's entries (created, renamed files) durable; raises `OSError`."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd`, looping over short writes; raises `OSError`."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _write_and_close(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd`, fsync it and close it (closed even when that fails); raises `OSError`."""
    try:
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def write_synced(path: Path, data: bytes) -> None:
    """Create or truncate `path` with `data` and fsync it (not atomic: for files a later record vouches for).

    Raises `StoreError` on any file-system failure.
    """
    try:
        _write_and_close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644), data)
    except OSError as err:
        raise store_error(err, "write", path) from err


def sync_folder(directory: Path) -> None:
    """`fsync_dir` raising `StoreError`: the entries of files just created in `directory` are durable."""
    try:
        fsync_dir(directory)
    except OSError as err:
        raise store_error(err, "sync", directory) from err
