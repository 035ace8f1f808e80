"""File I/O below the workspace root through directory descriptors, never by path.

`workspace.resolve` checks where a path leads, but a sandboxed command can swap a directory for a
symbolic link between that check and the write (`renameat2(RENAME_EXCHANGE)` in a loop), and vtcode's
own process is not sandboxed. So every read and write of the file tools walks from a descriptor of the
workspace root, one component at a time, with `O_NOFOLLOW | O_DIRECTORY`, and then works relative to
the final directory's descriptor (`openat`, `renameat`, `unlinkat`): a component that is a link by the
time it is opened fails the call instead of being followed. The descriptors stay valid whatever is
renamed afterwards, so nothing is read or written outside the directory that was walked.

The path handed in is the *resolved* workspace-relative path (`WorkspacePath.display`): links inside
the workspace were followed once by `resolve`, so a legitimate path contains no link at all here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath

from vtcode.protocol.errors import ToolError
from vtcode.tools.regular_file import not_regular_error

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# O_PATH (Linux) opens a directory only to walk through it: no read permission needed, nothing read.
_WALK = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC
# The last directory is opened for real: its descriptor is fsynced after a rename.
_FINAL = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC
_LINK_ERRNOS = (errno.ELOOP, errno.ENOTDIR)
# Turns a failed open of (name, below dir_fd, shown as display) into the error the caller raises.
_Explain = Callable[[OSError, str, int, str], Exception]


class PathChangedError(ToolError):
    """A directory on the way to a file was replaced by a link or a file while the call ran."""


def _changed(display: str) -> PathChangedError:
    return PathChangedError(
        f"{display} changed while it was being used (a directory on its path was replaced by a link "
        "or a file); nothing was read or written through the link. Retry the call."
    )


def relative_parts(display: str) -> tuple[str, ...]:
    """The components of a resolved workspace-relative path; () for the root."""
    parts = PurePosixPath(display).parts
    if parts == (".",):
        return ()
    if any(part in ("..", "/") for part in parts):
        raise ToolError(f"{display} is not a plain workspace-relative path")
    return parts


@contextlib.contextmanager
def open_directory(
    root: Path,
    parts: tuple[str, ...],
    display: str,
    *,
    create: bool = False,
    created: list[str] | None = None,
) -> Iterator[int]:
    """A descriptor of the directory `root/parts...`, reached without following any link.

    With `create`, missing directories are made (relative to their parent's descriptor) and their
    workspace-relative names appended to `created`, parents first. Raises `FileNotFoundError` for a
    missing directory otherwise, and `PathChangedError` where a component is a link or not a directory.
    """
    fd = os.open(root, _WALK if parts else _FINAL)
    try:
        for index, name in enumerate(parts):
            flags = _WALK if index < len(parts) - 1 else _FINAL
            try:
                next_fd = os.open(name, flags, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, dir_fd=fd)
                except FileExistsError:
                    pass  # made concurrently: the open below checks what it is
                else:
                    if created is not None:
                        created.append("/".join(parts[: index + 1]))
                next_fd = _open_at(name, flags, fd, display, _step_error)
            except OSError as exc:
                raise _step_error(exc, name, fd, display) from None
            os.close(fd)
            fd = next_fd
        yield fd
    finally:
        os.close(fd)


def _open_at(name: str, flags: int, dir_fd: int, display: str, explain: _Explain) -> int:
    """`os.open` of `name` below `dir_fd`; a failure is raised as `explain` tells it for `display`."""
    try:
        return os.open(name, flags, dir_fd=dir_fd)
    except OSError as exc:
        raise explain(exc, name, dir_fd, display) from None


def _step_error(exc: OSError, name: str, dir_fd: int, display: str) -> Exception:
    """A link where a directory was expected is a change under the call; a plain file stays ENOTDIR."""
    if exc.errno in _LINK_ERRNOS:
        with contextlib.suppress(OSError):
            if stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode):
                return _changed(display)
    return exc


def entry_stat(root: Path, display: str) -> os.stat_result | None:
    """The status of the entry itself (a link is not followed); None when it or a directory is missing."""
    parts = relative_parts(display)
    if not parts:
        return os.stat(root)
    try:
        with open_directory(root, parts[:-1], display) as dir_fd:
            return os.stat(parts[-1], dir_fd=dir_fd, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        return None


def read_bytes(root: Path, display: str) -> bytes | None:
    """The bytes of a regular file; None when absent; an error for a directory, pipe, device or link."""
    parts = relative_parts(display)
    if not parts:
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), display)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_NOFOLLOW | _CLOEXEC
    try:
        with open_directory(root, parts[:-1], display) as dir_fd:
            fd = _open_at(parts[-1], flags, dir_fd, display, _file_error)
    except FileNotFoundError:
        return None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), display)
        if not stat.S_ISREG(mode):
            raise not_regular_error(display, mode)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    finally:
        os.close(fd)


def _file_error(exc: OSError, name: str, dir_fd: int, display: str) -> Exception:
    """A link in the file's place is a change under the call; a socket is named as what it is."""
    if exc.errno == errno.ELOOP:
        return _changed(display)
    if exc.errno == errno.ENXIO:
        # A socket cannot be opened at all; say what it is rather than "no such device".
        return not_regular_error(display, os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    return exc


def temp_name(name: str) -> str:
    """A fresh temporary name beside `name`, short enough for any file system."""
    return f".{name[:64]}.{secrets.token_hex(4)}.tmp"


def replace_file(
    root: Path,
    display: str,
    data: bytes,
    *,
    mode: int | None = None,
    created: list[str] | None = None,
    tmp: str | None = None,
) -> None:
    """Replace `display` with `data` atomically: temp file in the same directory, fsync, rename, fsync.

    Missing parent directories are created (their names appended to `created`). The temp file is
    created with `O_EXCL | O_NOFOLLOW` relative to the directory's descriptor, so it can be neither a
    planted link nor someone else's file; the rename replaces a link at the final name, never its target.
    """
    parts = relative_parts(display)
    if not parts:
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), display)
    name = parts[-1]
    tmp = tmp or temp_name(name)
    with open_directory(root, parts[:-1], display, create=True, created=created) as dir_fd:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC
        fd = os.open(tmp, flags, 0o666, dir_fd=dir_fd)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                if mode is not None:
                    os.fchmod(handle.fileno(), mode)
                os.fsync(handle.fileno())
            os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dir_fd)
            raise
        _fsync(dir_fd)


def remove_file(root: Path, display: str) -> None:
    """Unlink the entry `display` (a link itself, never its target) and make that durable."""
    parts = relative_parts(display)
    with open_directory(root, parts[:-1], display) as dir_fd:
        os.unlink(parts[-1], dir_fd=dir_fd)
        _fsync(dir_fd)


def remove_empty_directory(root: Path, display: str) -> None:
    """Remove an empty directory `display`; errors are the caller's to ignore."""
    parts = relative_parts(display)
    with open_directory(root, parts[:-1], display) as dir_fd:
        os.rmdir(parts[-1], dir_fd=dir_fd)


def _fsync(fd: int) -> None:
    # Some file systems refuse fsync on a directory; the rename is done either way.
    with contextlib.suppress(OSError):
        os.fsync(fd)
