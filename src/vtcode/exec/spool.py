"""The output spool file of one command session, and start-up retention of old spools.

Every byte the command writes goes to `<workspace>/.vtcode/context/tool_outputs/<session_id>.log`
(SPEC section 8.3). The stream passes through an incremental UTF-8 decoder: valid text is written as it
came (byte for byte), a character split across two reads is completed before it is written, and only
invalid bytes become U+FFFD, so the file is always readable UTF-8 for `rg` and `sed`.

A running session holds an exclusive `flock` on its spool, which is how start-up retention in any
vtcode process knows never to remove a running session's file.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import queue
import threading
from pathlib import Path, PurePosixPath

from vtcode.core.exec.spool import (
    Dropped,
    Finished,
    Opened,
    OpenFailed,
    SpoolEvent,
    SpoolState,
    WriteFailed,
    Wrote,
    advance,
    expired,
    room,
)
from vtcode.core.exec.text import floor_boundary, incomplete_utf8_suffix
from vtcode.exec.file_lock import unless_locked

log = logging.getLogger(__name__)

SPOOL_DIR = Path(".vtcode") / "context" / "tool_outputs"
SPOOL_SUFFIX = ".log"
SPOOL_GITIGNORE = "*\n"
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def spool_dir(workspace: Path) -> Path:
    """The folder holding every session's spool in `workspace`."""
    return workspace / SPOOL_DIR


def spool_relpath(session_id: str) -> str:
    """The workspace-relative POSIX path of a session's spool, as the model sees it."""
    return (SPOOL_DIR / f"{session_id}{SPOOL_SUFFIX}").as_posix()


def _describe(exc: OSError) -> str:
    name = errno.errorcode.get(exc.errno or 0, "")
    detail = exc.strerror or str(exc)
    return f"{detail} ({name})" if name else detail


# Up to this much output is written inline; past it a disk thread takes over (see `_DiskWriter`).
_INLINE_BYTES = 1 << 20
# Chunks queued for the disk thread; beyond that the reader waits, and so does the command.
_QUEUE_CHUNKS = 8


class _DiskWriter:
    """Writes queued chunks to the spool file on its own thread.

    `os.write` releases the GIL, so the kernel's copy into the page cache overlaps with reading and
    previewing the next chunk on the event loop: on a long, fast stream this is most of the gap to a
    plain shell redirect (bench/exec_spool_bench.py).
    """

    def __init__(self, fd: int, spool: SpoolWriter) -> None:
        self._fd = fd
        self._spool = spool
        self._queue: queue.Queue[tuple[bytes, bool] | None] = queue.Queue(_QUEUE_CHUNKS)
        self._thread = threading.Thread(target=self._run, name="vtcode-spool", daemon=True)
        self._thread.start()

    def put(self, data: bytes, count: bool) -> None:
        """Queue a chunk (waits while the queue is full)."""
        self._queue.put((data, count))

    def sync(self) -> None:
        """Wait until every queued chunk reached the file (or failed)."""
        self._queue.join()

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        failed = False
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                if not failed:
                    failed = not self._spool.write_now(self._fd, *item)
            finally:
                self._queue.task_done()


class SpoolWriter:
    """Appends a session's output to its spool file; failures are recorded, never raised."""

    def __init__(self, workspace: Path, session_id: str, cap_bytes: int) -> None:
        self.path = spool_dir(workspace) / f"{session_id}{SPOOL_SUFFIX}"
        self.relpath = spool_relpath(session_id)
        self._state = SpoolState(cap_bytes=cap_bytes)
        # The disk thread records writes and failures too.
        self._lock = threading.Lock()
        self._workspace = workspace
        self._fd: int | None = None
        self._disk: _DiskWriter | None = None
        self._accepted = 0
        self._carry = b""

    @property
    def state(self) -> SpoolState:
        """The spool's state as of now (call `sync` first to include queued writes)."""
        with self._lock:
            return self._state

    def _apply(self, event: SpoolEvent) -> None:
        with self._lock:
            self._state = advance(self._state, event)

    def open(self) -> None:
        """Create the folder (with its `.gitignore`) and the file; a failure only disables the spool."""
        try:
            self._fd = _open_spool(self._workspace, self.path)
        except OSError as exc:
            self._apply(OpenFailed(f"could not create the spool file {self.relpath}: {_describe(exc)}"))
            return
        self._apply(Opened())

    def write(self, data: bytes) -> None:
        """Append the next bytes of the stream (up to the cap)."""
        state = self.state
        if state.capped:
            self._apply(Dropped(len(data)))
            return
        if self._fd is None or state.failure is not None:
            return
        if self._carry:
            data = self._carry + data
            self._carry = b""
        keep = incomplete_utf8_suffix(data)
        if keep:
            self._carry = data[-keep:]
            data = data[:-keep]
        self._put(_valid_utf8(data))

    def _put(self, data: bytes) -> None:
        allowed = room(self._state.cap_bytes, self._accepted, len(data))
        if allowed < len(data):
            allowed = floor_boundary(data, allowed)
            self._queue(data[:allowed])
            self._apply(Dropped(len(data) - allowed))
            # The file itself says it stops here, for whoever reads it without the tool result. It
            # stays open (and locked) until the stream ends: a running session's spool.
            marker = f"\n[vtcode: spool capped at {self._state.cap_bytes} bytes; later output not recorded]\n"
            self._queue(marker.encode(), count=False)
            return
        self._queue(data)

    def _queue(self, data: bytes, *, count: bool = True) -> None:
        if self._fd is None or not data:
            return
        if count:
            self._accepted += len(data)
        if self._disk is None and self._accepted <= _INLINE_BYTES:
            # Most commands print little: no thread for them.
            self.write_now(self._fd, data, count)
            return
        if self._disk is None:
            self._disk = _DiskWriter(self._fd, self)
        self._disk.put(data, count)

    def write_now(self, fd: int, data: bytes, count: bool) -> bool:
        """Write `data` to `fd` (on whichever thread owns the writes); False once a write failed."""
        view = memoryview(data)
        try:
            while view:
                written = os.write(fd, view)
                if count:
                    self._apply(Wrote(written))
                view = view[written:]
        except OSError as exc:
            self._apply(WriteFailed(f"writing the spool file {self.relpath} failed: {_describe(exc)}"))
            return False
        return True

    def sync(self) -> None:
        """Wait until everything accepted so far is in the file (a few chunks at most)."""
        if self._disk is not None:
            self._disk.sync()

    def finish(self) -> None:
        """The stream is drained: write what is left, close the file, mark the spool finished."""
        if self._carry and self._fd is not None and not self.state.capped and self.state.failure is None:
            # An unfinished character at end of stream can never be completed.
            carry, self._carry = self._carry, b""
            self._put(carry.decode("utf-8", "replace").encode())
        self._close()
        self._apply(Finished())

    def abandon(self, reason: str) -> None:
        """Close the file of a stream that was cut off before end of file; it is never advertised."""
        self._close()
        self._apply(WriteFailed(reason))
        self._apply(Finished())

    def _close(self) -> None:
        if self._disk is not None:
            self._disk.close()
            self._disk = None
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def _valid_utf8(data: bytes) -> bytes:
    # Most command output is ASCII, which `isascii` confirms without allocating a decoded copy.
    if data.isascii():
        return data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace").encode("utf-8")
    return data


def open_folder(workspace: Path, relative: PurePosixPath | Path, *, create: bool) -> int:
    """A descriptor of `workspace/relative`, walked without following links (made when `create`).

    A repository could ship `.vtcode/context` as a link, or a command's background process swap it for
    one: each component is opened relative to its parent with `O_NOFOLLOW`, so a link fails the walk.
    """
    fd = os.open(workspace, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in PurePosixPath(relative).parts:
            if part in ("", ".", ".."):
                raise OSError(errno.EINVAL, f"unexpected path component {part!r}")
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
            child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def ensure_spool_folder(workspace: Path) -> int:
    """Create `.vtcode/`, the spool folder and its `.gitignore` (never through a link); the folder's fd."""
    fd = open_folder(workspace, SPOOL_DIR, create=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        ignore = os.open(".gitignore", flags, 0o644, dir_fd=fd)
    except FileExistsError:
        return fd  # a file, or a planted link: either way nothing is written through it
    except OSError:
        os.close(fd)
        raise
    try:
        os.write(ignore, SPOOL_GITIGNORE.encode())
    finally:
        os.close(ignore)
    return fd


def _open_spool(workspace: Path, path: Path) -> int:
    folder = ensure_spool_folder(Path(os.path.realpath(workspace)))
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW
        fd = os.open(path.name, flags, 0o644, dir_fd=folder)
    finally:
        os.close(folder)
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def remove_expired_spools(workspace: Path, now: float) -> list[Path]:
    """Delete spools older than the retention period that no running session holds; return them."""
    folder = spool_dir(workspace)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.endswith(SPOOL_SUFFIX):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not entry.is_file(follow_symlinks=False) or not expired(info.st_mtime, now):
            continue
        if _remove_unless_locked(Path(entry.path)):
            removed.append(Path(entry.path))
    return removed


def _remove_unless_locked(path: Path) -> bool:
    with unless_locked(path) as fd:
        if fd is None:
            # Gone, or locked: a session (in this or another vtcode process) is still running.
            return False
        try:
            path.unlink()
        except OSError as exc:
            log.debug("could not remove old spool %s: %s", path, exc)
            return False
        return True


def write_spool_text(workspace: Path, name: str, text: str) -> str:
    """Write `text` whole to the spool file `name` (a tool's oversized result); its workspace-relative path.

    Raises OSError when the spool folder cannot be written (or a link stands in its way).
    """
    path = spool_dir(workspace) / f"{name}{SPOOL_SUFFIX}"
    fd = _open_spool(workspace, path)
    with os.fdopen(fd, "w", encoding="utf-8", errors="surrogatepass") as handle:
        handle.write(text)
    return (SPOOL_DIR / path.name).as_posix()


def write_spool_bytes(workspace: Path, name: str, data: bytes) -> str:
    """Write `data` exactly to the spool file `name` (a fetched page as sent); its workspace-relative path.

    Raises OSError when the spool folder cannot be written (or a link stands in its way).
    """
    path = spool_dir(workspace) / f"{name}{SPOOL_SUFFIX}"
    fd = _open_spool(workspace, path)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return (SPOOL_DIR / path.name).as_posix()
