"""Opening a workspace file for reading without ever blocking on something that is not a file.

A named pipe opened for reading blocks until a writer appears, which may be never: the agent would
hang for good. Every file tool opens through here: `O_NONBLOCK` makes the open itself return at
once, and the type is checked on the opened descriptor (`fstat`), so a file swapped for a pipe
between a check and the open cannot slip through.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from vtcode.protocol.errors import ToolError

_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words ("a named pipe")."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "a special file"


def not_regular_error(display: str, mode: int) -> ToolError:
    """The error for a path that names something other than a regular file or directory."""
    return ToolError(f"{display} is not a regular file ({kind_of(mode)}); only regular files can be used")


def check_regular_or_absent(real: Path, display: str) -> bool:
    """Whether `real` exists as a regular file; False when absent; an error for a pipe, device or socket.

    A directory counts as present and is left to the caller, which words that error itself.
    """
    try:
        mode = os.stat(real).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return False
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return True
    raise not_regular_error(display, mode)


def open_regular(real: Path, display: str) -> BinaryIO:
    """Open `real` for reading, refusing at once anything that is not a regular file.

    Raises `FileNotFoundError` and `IsADirectoryError` as `open` does, so callers keep their wording.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        # A socket cannot be opened at all (ENXIO); say what it is rather than "no such device".
        if exc.errno == errno.ENXIO:
            check_regular_or_absent(real, display)
        raise
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(real))
        if not stat.S_ISREG(mode):
            raise not_regular_error(display, mode)
        # Regular files ignore O_NONBLOCK; it is cleared anyway so the descriptor is an ordinary one.
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
