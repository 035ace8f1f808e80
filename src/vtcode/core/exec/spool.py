"""The output spool's state machine and the rule for when a result may point at the spool file.

A spool is `opened` once its file exists and is writable, `failed` after any open or write error,
`finished` when the stream is fully drained and the file closed, and `capped` once it reached its size
limit. A reference (`spool_path`) is only ever handed out for a spool that is open and has never failed
(reference exec-spool-release.md section 5.4; SPEC section 8.3), so the model never reads a broken file.
"""

from __future__ import annotations

import msgspec

# Spools of finished sessions older than this are removed at start-up (SPEC section 8.6).
SPOOL_RETENTION_SECONDS = 7 * 24 * 3600

# Why an exited session's spool is not complete yet.
HELD_OPEN = "stream_held_open"


class SpoolState(msgspec.Struct, frozen=True, kw_only=True):
    """What is known about one session's spool file."""

    cap_bytes: int
    opened: bool = False
    failure: str | None = None
    finished: bool = False
    written_bytes: int = 0
    # Output that arrived after the cap and was not recorded.
    dropped_bytes: int = 0

    @property
    def available(self) -> bool:
        """The file is open (or was closed cleanly) and no write has failed: safe to read."""
        return self.opened and self.failure is None

    @property
    def complete(self) -> bool:
        """Available and holding the whole drained stream (up to the cap)."""
        return self.available and self.finished

    @property
    def capped(self) -> bool:
        """Whether output beyond the cap was left out."""
        return self.dropped_bytes > 0


class Opened(msgspec.Struct, frozen=True):
    """The file was created (truncated) and can be written."""


class OpenFailed(msgspec.Struct, frozen=True):
    """The folder or file could not be created."""

    reason: str


class Wrote(msgspec.Struct, frozen=True):
    """`size` bytes reached the file."""

    size: int


class WriteFailed(msgspec.Struct, frozen=True):
    """A write failed (disk full, file too large): the spool stops for good."""

    reason: str


class Dropped(msgspec.Struct, frozen=True):
    """`size` bytes arrived after the cap and were not written."""

    size: int


class Finished(msgspec.Struct, frozen=True):
    """The stream reached end of file and the spool was closed."""


SpoolEvent = Opened | OpenFailed | Wrote | WriteFailed | Dropped | Finished


def advance(state: SpoolState, event: SpoolEvent) -> SpoolState:
    """The state after `event`; a finished spool no longer changes, a failure is never undone."""
    if state.finished:
        return state
    match event:
        case Opened():
            if state.opened or state.failure is not None:
                return state
            return msgspec.structs.replace(state, opened=True)
        case OpenFailed(reason) | WriteFailed(reason):
            if state.failure is not None:
                return state
            return msgspec.structs.replace(state, failure=reason)
        case Wrote(size):
            if not state.available:
                return state
            return msgspec.structs.replace(state, written_bytes=state.written_bytes + size)
        case Dropped(size):
            return msgspec.structs.replace(state, dropped_bytes=state.dropped_bytes + size)
        case Finished():
            return msgspec.structs.replace(state, finished=True)


def room(cap_bytes: int, accepted: int, size: int) -> int:
    """How many of the next `size` bytes may still be written when `accepted` already were."""
    return max(0, min(size, cap_bytes - accepted))


class SpoolFields(msgspec.Struct, frozen=True, kw_only=True):
    """The spool fields of one result (None means the field is left out)."""

    spool_path: str | None = None
    spool_complete: bool | None = None
    spool_pending: bool | None = None
    spool_pending_reason: str | None = None
    spooled_bytes: int | None = None
    spool_error: str | None = None
    spool_truncated_bytes: int | None = None


class SpoolView(msgspec.Struct, frozen=True, kw_only=True):
    """The facts the reference rule looks at."""

    state: SpoolState
    path: str
    process_exited: bool
    stream_drained: bool
    # Output was big (over the threshold) or some preview of the session was cut.
    big_or_truncated: bool
    # `[context.dynamic] enabled`, and the command is not itself a read of a spool file.
    advertise: bool


def spool_fields(view: SpoolView) -> SpoolFields:
    """Apply the reference rule: a path only for a safe spool, `spool_pending` for an unfinished one.

    * failed → the error, never a path;
    * exited but not complete → `spool_pending` (the session is kept so a later wait hands over the
      complete file);
    * complete, or running (a readable partial snapshot) → the path, when the output is big or cut.
    """
    state = view.state
    error = state.failure
    truncated = state.dropped_bytes if state.capped else None
    if not view.advertise or not state.available:
        return SpoolFields(spool_error=error, spool_truncated_bytes=truncated)
    if view.process_exited and not state.complete:
        return SpoolFields(
            spool_complete=False,
            spool_pending=True,
            spool_pending_reason=HELD_OPEN if not view.stream_drained else "flushing",
            spool_truncated_bytes=truncated,
        )
    if not view.big_or_truncated and not state.capped:
        return SpoolFields()
    return SpoolFields(
        spool_path=view.path,
        spool_complete=state.complete,
        spooled_bytes=state.written_bytes,
        spool_truncated_bytes=truncated,
    )


def expired(mtime: float, now: float, max_age: float = SPOOL_RETENTION_SECONDS) -> bool:
    """Whether a finished spool last written at `mtime` is old enough to remove at start-up."""
    return now - mtime > max_age
