"""Files that mark work in progress (a running command's spool, a patch being applied) by a lock on them.

Their owner holds an exclusive `flock` while it works; a cleaner that wants to remove or recover such a
file takes the lock without waiting, and leaves the file alone when it cannot.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def unless_locked(path: Path) -> Iterator[int | None]:
    """`path` opened (a link is not followed) and locked exclusively; None when it is gone or held."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        yield None
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield None
            return
        yield fd
    finally:
        os.close(fd)
