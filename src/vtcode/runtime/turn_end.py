"""How the end of a failed turn is told: the `turn.failed` event for what stopped it, the note of an
interrupt in the history."""

from __future__ import annotations

from vtcode.protocol.errors import (
    AgentFailedError,
    ConfigError,
    ExitCode,
    InterruptedByUser,
    ProviderError,
    QueueFullError,
    StoreError,
    UsageError,
    VtcodeError,
)
from vtcode.protocol.events import TurnFailed
from vtcode.protocol.messages import MessageMeta, UserMessage

INTERRUPTED_MESSAGE = "interrupted by the user"
# What the history says after a prompt the user interrupted before any reply: the model learns it, and
# resuming the session does not answer the prompt again as if a crash had cut it off.
INTERRUPTION_NOTE = "[The user interrupted this request before it was answered.]"


def interrupted() -> TurnFailed:
    """The event of a turn an interrupt (or shutdown) cancelled."""
    return TurnFailed(kind="interrupted", message=INTERRUPTED_MESSAGE, exit_code=int(ExitCode.INTERRUPTED))


# The kind of the errors whose class alone decides it; the first match wins.
_KINDS: tuple[tuple[type[VtcodeError], str], ...] = (
    (ConfigError, "config"),
    (UsageError, "usage"),
    (StoreError, "store"),
    (QueueFullError, "queue_full"),
    (InterruptedByUser, "interrupted"),
)


def failed(error: Exception) -> TurnFailed:
    """The event of a turn `error` ended; its kind is one of `FAILURE_KINDS`."""
    if not isinstance(error, VtcodeError):
        return TurnFailed(
            kind="internal",
            message=f"internal error: {type(error).__name__}: {error}",
            hint="rerun with VTCODE_DEBUG=1 for details and report it",
            exit_code=int(ExitCode.AGENT_FAILED),
        )
    return TurnFailed(
        kind=_kind(error), message=error.message, hint=error.hint or "", exit_code=int(error.exit_code)
    )


def _kind(error: VtcodeError) -> str:
    if isinstance(error, ProviderError):
        return str(error.kind)
    if isinstance(error, AgentFailedError):
        return error.kind
    return next((kind for cls, kind in _KINDS if isinstance(error, cls)), "agent_failed")


def interruption_note(turn: int, now: float) -> UserMessage:
    """The history's note that the user interrupted `turn` before it was answered."""
    return UserMessage(INTERRUPTION_NOTE, meta=MessageMeta(kind="interruption", created_at=now, turn=turn))
