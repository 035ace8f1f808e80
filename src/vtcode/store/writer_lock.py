"""The exclusive writer lock of one small state file (held for a read-change-write, released on exit)."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from vtcode.store.errors import store_error


@contextlib.contextmanager
def writer_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive flock on `path` (created if missing); blocking: writers hold it for one write."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as err:
        raise store_error(err, "open", path) from err
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
