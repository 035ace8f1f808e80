"""An append-only JSONL log: one record per line, fsync at checkpoints, tolerant of a torn last line.

A crash can leave the last line incomplete (no trailing newline) or, on some file systems, a last line of
bytes that are not JSON (zeros where the data never reached the disk). Loading ignores such a last line
and reports it as a notice, worded for what it is: "incomplete" only without its newline, "corrupt" when
the line is complete but not JSON. Opening for append truncates it first, so the next record starts on a
fresh line and a torn write never turns into corruption in the middle of the file. Any other line that
does not decode is a `StoreError` naming the file and line. One process appends at a time: the
writer holds an exclusive `flock` on the file while it is open.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Generic, Self, TypeVar

import msgspec

from vtcode.protocol.errors import StoreError
from vtcode.store.atomic import fsync_dir, write_all
from vtcode.store.errors import newer_format_in, store_error

T = TypeVar("T")

_BLOCK = 64 * 1024
NEWER_LOG_HINT = "the session was written by a newer vtcode; upgrade vtcode to resume it"


class JsonlLoad(msgspec.Struct, Generic[T], frozen=True):
    """The records of a log in file order, and notices about what was skipped (a torn last line)."""

    records: list[T]
    notices: list[str]


class JsonlLog(Generic[T]):
    """One JSONL file; `encode`/`decode` turn a record into one line (without newline) and back."""

    def __init__(
        self,
        path: Path,
        *,
        encode: Callable[[T], bytes],
        decode: Callable[[bytes], T],
        newest: int | None = None,
    ) -> None:
        self.path = path
        self._encode = encode
        self._decode = decode
        # The newest `schema_version` this vtcode reads: a line stating a newer one is refused as such.
        self._newest = newest
        self._fd: int | None = None
        # Opened (by `claim`) but a torn last line not cut off yet.
        self._unrepaired = False
        # A file this log created whose directory entry is not durable yet (an unsynced first append).
        self._dir_unsynced = False

    def load(self) -> JsonlLoad[T]:
        """Read every complete record; a missing file is an empty log."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return JsonlLoad([], [])
        except OSError as err:
            raise store_error(err, "read", self.path) from err
        lines = data.split(b"\n")
        # After the final newline: b"" for a cleanly ended file, else the bytes of a torn write.
        tail = lines.pop()
        records: list[T] = []
        notices: list[str] = []
        for number, line in enumerate(lines, start=1):
            try:
                records.append(self._decode(line))
            except msgspec.DecodeError as err:
                is_last = number == len(lines) and not tail
                if is_last and not _is_json(line):
                    notices.append(self._corrupt_last_notice(number, len(line) + 1))
                    break
                raise self._corrupt(number, line, err) from err
        if tail:
            notices.append(self._torn_notice(len(lines) + 1, len(tail)))
        return JsonlLoad(records, notices)

    def append(self, records: Sequence[T], *, sync: bool = True) -> None:
        """Append records as lines in one write; with `sync`, fsync before returning (a checkpoint).

        Without `sync` nothing of it is durable until `sync()` (not even a new file's directory entry);
        the lines are in the file at once all the same, so a killed process loses none of them.
        On failure the file is cut back to its previous length, so a retry cannot duplicate records.
        """
        if not records:
            return
        payload = b"".join(self._encode(record) + b"\n" for record in records)
        fd = self._open(sync_dir=sync)
        start = os.fstat(fd).st_size
        try:
            write_all(fd, payload)
            if sync:
                self._make_durable(fd)
        except OSError as err:
            try:
                os.ftruncate(fd, start)
            except OSError:
                # Reopening repairs a torn tail; complete lines of this batch may remain.
                self.close()
            raise store_error(err, "append to", self.path) from err

    def sync(self) -> None:
        """Make every append so far durable: the file's bytes and a new file's directory entry."""
        try:
            fd = self._fd if self._fd is not None else os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                self._make_durable(fd)
            finally:
                if fd != self._fd:
                    os.close(fd)
        except OSError as err:
            raise store_error(err, "sync", self.path) from err

    def _make_durable(self, fd: int) -> None:
        """fsync the file and, the first time for a new file, its directory entry; raises `OSError`."""
        os.fsync(fd)
        if self._dir_unsynced:
            fsync_dir(self.path.parent)
            self._dir_unsynced = False

    def claim(self) -> None:
        """Open the file for appending and take its writer lock now, not at the first `append`; raises
        `StoreError` when another process writes it. A torn last line stays until that append (`load`
        still reports it)."""
        self._open(repair=False)

    def close(self) -> None:
        """Release the file and its writer lock; a later `append` reopens it."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _open(self, *, sync_dir: bool = True, repair: bool = True) -> int:
        """The locked append descriptor; with `repair`, a torn last line is cut off first (once)."""
        if self._fd is None:
            self._fd = self._locked(sync_dir=sync_dir)
            self._unrepaired = True
        if repair and self._unrepaired:
            try:
                _cut_torn_tail(self._fd)
            except OSError as err:
                self.close()
                raise store_error(err, "open", self.path) from err
            self._unrepaired = False
        return self._fd

    def _locked(self, *, sync_dir: bool) -> int:
        flags = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC
        try:
            try:
                fd = os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o600)
                created = True
            except FileExistsError:
                fd = os.open(self.path, flags)
                created = False
        except OSError as err:
            raise store_error(err, "open", self.path) from err
        try:
            _lock(fd, self.path)
            if created and sync_dir:
                # A new file's directory entry is part of the first checkpoint's durability.
                fsync_dir(self.path.parent)
            elif created:
                self._dir_unsynced = True
        except OSError as err:
            os.close(fd)
            raise store_error(err, "open", self.path) from err
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _torn_notice(self, number: int, size: int) -> str:
        return (
            f"{self.path}: ignored an incomplete last line (line {number}, {size} bytes) "
            "left by an interrupted write"
        )

    def _corrupt_last_notice(self, number: int, size: int) -> str:
        return (
            f"{self.path}: ignored a corrupt last line (line {number}, {size} bytes, not JSON); "
            "it is dropped when the session continues"
        )

    def _corrupt(self, number: int, line: bytes, err: msgspec.DecodeError) -> StoreError:
        if self._newest is not None:
            newer = newer_format_in(
                line, f"{self.path}:{number}", "record", self._newest, hint=NEWER_LOG_HINT
            )
            if newer is not None:
                return newer
        what = "invalid record" if _is_json(line) else "invalid JSON"
        return StoreError(
            f"{self.path}:{number}: {what}: {err}",
            hint="the session log is damaged; fix or remove that line, or start a new session",
        )


def _lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise StoreError(
                f"{path} is being written by another vtcode process",
                hint="finish or stop the other vtcode process using this session, then retry",
            ) from err
        raise


def _cut_torn_tail(fd: int) -> None:
    """Truncate whatever `JsonlLog.load` would ignore as a torn last line."""
    size = os.fstat(fd).st_size
    if size == 0:
        return
    last_newline = _rfind_newline(fd, size)
    if last_newline != size - 1:
        end = last_newline + 1
    else:
        start = _rfind_newline(fd, size - 1) + 1
        line = os.pread(fd, size - 1 - start, start)
        end = size if _is_json(line) else start
    if end < size:
        os.ftruncate(fd, end)
        os.fsync(fd)


def _rfind_newline(fd: int, before: int) -> int:
    """Offset of the last newline strictly before `before`, or -1."""
    end = before
    while end > 0:
        start = max(0, end - _BLOCK)
        found = os.pread(fd, end - start, start).rfind(b"\n")
        if found >= 0:
            return start + found
        end = start
    return -1


def _is_json(line: bytes) -> bool:
    with contextlib.suppress(msgspec.DecodeError):
        msgspec.json.decode(line)
        return True
    return False
