"""`StoreError`s a user can act on: an `OSError` of the file system translated, a newer format refused."""

from __future__ import annotations

import errno
from pathlib import Path

import msgspec

from vtcode.protocol.errors import StoreError

# errno -> (what went wrong, how to fix it); `{dir}` is the directory vtcode was writing to.
_KNOWN: dict[int, tuple[str, str]] = {
    errno.ENOSPC: (
        "no space left on the device",
        "free some disk space on the file system holding {dir}, then retry",
    ),
    errno.EDQUOT: (
        "disk quota exceeded",
        "free some space within your quota, or set VTCODE_HOME to a directory on another disk",
    ),
    errno.EFBIG: (
        "file too large for the file size limit of this process",
        "raise the file size limit (`ulimit -f`) or start a new session",
    ),
    errno.EACCES: (
        "permission denied",
        "check the permissions of {dir}, or set VTCODE_HOME to a directory you can write",
    ),
    errno.EPERM: (
        "operation not permitted",
        "check the permissions of {dir}, or set VTCODE_HOME to a directory you can write",
    ),
    errno.EROFS: (
        "the file system is read-only",
        "set VTCODE_HOME to a directory on a writable file system",
    ),
}


def store_error(err: OSError, action: str, path: Path) -> StoreError:
    """A `StoreError` saying what could not be done to `path`, why, and what to do about it."""
    known = _KNOWN.get(err.errno) if err.errno is not None else None
    if known is not None:
        reason, hint = known
    else:
        reason = err.strerror or str(err)
        hint = "check that {dir} exists and is writable"
    return StoreError(f"could not {action} {path}: {reason}", hint=hint.format(dir=path.parent))


def newer_format_error(where: str, what: str, version: int, newest: int, *, hint: str) -> StoreError:
    """A `StoreError` refusing `what` (at `where`): its `schema_version` is newer than this vtcode reads."""
    return StoreError(
        f"{where}: {what} has schema_version {version}, this vtcode reads up to {newest}", hint=hint
    )


class _Stated(msgspec.Struct):
    """Only the version a record or file says it has; every other field is left unread."""

    schema_version: int | None = None


_stated_decoder = msgspec.json.Decoder(_Stated)


def newer_format_in(data: bytes, where: str, what: str, newest: int, *, hint: str) -> StoreError | None:
    """For `data` that did not decode: the error refusing it when it states a newer `schema_version`.

    A newer vtcode that adds a field also raises the version, but the strict decoder fails on the new
    field before any version check can run; without this a newer file reads as "damaged", and a damaged
    summary would even be rebuilt and overwritten. None when `data` states no newer version.
    """
    try:
        version = _stated_decoder.decode(data).schema_version
    except msgspec.DecodeError:
        return None
    if version is None or version <= newest:
        return None
    return newer_format_error(where, what, version, newest, hint=hint)
