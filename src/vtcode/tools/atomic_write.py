"""Durable replacement of one file: readers see the old content or the new one, never a mix."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path


def file_mode(path: Path) -> int | None:
    """The permission bits of an existing file, or None when it does not exist."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return None


def write_atomic(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace `path` with `data`: write a temporary file beside it, fsync, rename over, fsync the directory.

    `mode` sets the permission bits (pass the old file's to keep them); without it the process umask
    applies, as for any newly created file.
    """
    directory = path.parent
    # Same directory, so the rename is atomic; the name is short enough for any file system.
    tmp = directory / f".{path.name[:64]}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_directory(directory)


def fsync_directory(directory: Path) -> None:
    """Make a rename or unlink in `directory` durable; a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
