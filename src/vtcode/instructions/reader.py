"""Reading instruction files defensively, with a cache keyed by each file's stat signature.

One bad file (binary, too large, unreadable, a directory, a dangling link or a link loop) is reported
as `Unreadable` with a reason and never raises (SPEC section 5, decision 2). Unchanged files are not
read again: a file is re-read only when its `(mtime_ns, size, inode, mode)` changed, or while its mtime
is too recent to trust (a second write in the same timestamp tick would otherwise go unseen).
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

MAX_SOURCE_BYTES = 1_048_576
"""Larger files are skipped: far beyond any budget, and likely generated or not instructions at all."""

# Timestamps this close to the moment of reading may hide a later write in the same tick
# (git's "racily clean" problem); such entries are re-checked by content.
RACY_NS = 2_000_000_000

Signature = tuple[int, int, int, int]
Clock = Callable[[], int]


class Unreadable(msgspec.Struct, frozen=True):
    """A file that exists but cannot be used; `reason` is shown to the user."""

    reason: str


ReadResult = str | Unreadable | None
"""The text (UTF-8, BOM removed), why it cannot be used, or None when there is no such file."""


def signature(info: os.stat_result) -> Signature:
    """What identifies a version of a file or directory without reading it."""
    return (info.st_mtime_ns, info.st_size, info.st_ino, stat.S_IFMT(info.st_mode))


def probe(path: Path | str) -> Signature | str | None:
    """The stat signature of `path` (links followed), None when missing, or an error name."""
    try:
        return signature(os.stat(path))
    except FileNotFoundError:
        return "dangling" if os.path.islink(path) else None
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, "error")


class _Entry(msgspec.Struct, frozen=True):
    signature: Signature
    result: ReadResult
    read_at: int


class SourceReader:
    """Reads files as instruction text, caching by signature; shared across rebuilds of a session."""

    def __init__(self, *, clock: Clock = time.time_ns, max_bytes: int = MAX_SOURCE_BYTES) -> None:
        self._clock = clock
        self._max_bytes = max_bytes
        self._cache: dict[str, _Entry] = {}
        self.reads = 0
        """How many files were actually opened (tests and the benchmark check the cache with it)."""

    def read(self, path: Path) -> ReadResult:
        """The text of `path`, `Unreadable` with a reason, or None when nothing is there."""
        try:
            info = os.stat(path)
        except FileNotFoundError:
            if os.path.islink(path):
                return Unreadable("dangling symlink: its target does not exist")
            return None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return Unreadable("symlink loop")
            return Unreadable(f"cannot be inspected: {exc.strerror or exc}")
        if stat.S_ISDIR(info.st_mode):
            return Unreadable("is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            return Unreadable("is not a regular file")
        key = os.fspath(path)
        sig = signature(info)
        cached = self._cache.get(key)
        if cached is not None and cached.signature == sig and not self._racy(cached):
            return cached.result
        result = self._load(path, info.st_size)
        self._cache[key] = _Entry(sig, result, self._clock())
        return result

    def _racy(self, entry: _Entry) -> bool:
        return entry.signature[0] >= entry.read_at - RACY_NS

    def _load(self, path: Path, size: int) -> ReadResult:
        if size > self._max_bytes:
            return Unreadable(f"too large: {size} bytes (files over {self._max_bytes} bytes are skipped)")
        self.reads += 1
        try:
            with open(path, "rb") as handle:
                data = handle.read(self._max_bytes + 1)
        except PermissionError:
            return Unreadable("unreadable: permission denied")
        except OSError as exc:
            return Unreadable(f"unreadable: {exc.strerror or exc}")
        if len(data) > self._max_bytes:
            return Unreadable(f"too large: over {self._max_bytes} bytes")
        if b"\0" in data:
            return Unreadable("binary file (contains NUL bytes), not text")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return Unreadable(f"not UTF-8 text (invalid byte at offset {exc.start})")
        # A BOM would hide a frontmatter line from detection (fixed in the original's later releases).
        return text.removeprefix("\ufeff")
