"""When to compact: the soft/hard decision at a boundary and the failure circuit breaker (reference 3)."""

from __future__ import annotations

import enum

import msgspec

from vtcode.core.compaction.thresholds import Thresholds
from vtcode.core.context_pressure import ContextPressure
from vtcode.protocol.errors import ProviderErrorKind

# Reference 3.2 step 2.6: a history this short is not compacted unless forced (the soft mark or /compact).
SMALL_HISTORY_MESSAGES = 10


class Suppression(enum.IntEnum):
    """How long automatic compaction stays off after a failure; a state only ever rises until reset."""

    NONE = 0
    TURN = 1
    STICKY = 2
    UNTIL_SUCCESS = 3


_CREDIT = (
    "spending-limit",
    "spending limit",
    "out of credits",
    "usage balance exhausted",
    "usage limit reached",
)
_SIZE = ("context length", "too many tokens")
_AUTH = ("status 401", "unauthorized")
_SCHEMA = ("invalid_request_error",)


def classify_failure(text: str, kind: ProviderErrorKind | None = None) -> Suppression:
    """The suppression a compaction failure earns: by our error kind when known, else by its text."""
    if kind is not None:
        match kind:
            case ProviderErrorKind.AUTH | ProviderErrorKind.QUOTA:
                return Suppression.UNTIL_SUCCESS
            case ProviderErrorKind.CONTEXT_OVERFLOW | ProviderErrorKind.BAD_REQUEST:
                return Suppression.STICKY
            case _:
                pass
    lowered = text.lower()
    if any(signal in lowered for signal in _CREDIT):
        return Suppression.UNTIL_SUCCESS
    if any(signal in lowered for signal in _SIZE):
        return Suppression.STICKY
    if any(signal in lowered for signal in _AUTH):
        return Suppression.UNTIL_SUCCESS
    if any(signal in lowered for signal in _SCHEMA):
        return Suppression.STICKY
    return Suppression.TURN


def escalate(current: Suppression, failure: Suppression) -> Suppression:
    """The state after a failure: it changes only from NONE and never downgrades."""
    return failure if current is Suppression.NONE else current


class Action(enum.Enum):
    """What the runtime does at a before-request boundary."""

    NOTHING = "nothing"
    MARK_PENDING = "mark_pending"
    COMPACT = "compact"


class Decision(msgspec.Struct, frozen=True):
    """The action, the pressure to keep, and the reason (for logs and `thread.compacted`)."""

    action: Action
    pressure: ContextPressure
    trigger: str  # "soft", "hard" or "" when nothing fires


def decide(
    pressure: ContextPressure,
    thresholds: Thresholds,
    *,
    enabled: bool,
    suppression: Suppression,
    history_len: int,
) -> Decision:
    """Reference 3.2: mark pending at the soft threshold, compact at the hard one or when pending.

    Comparisons are "at or above fires". Disabled or suppressed compaction does nothing, whatever the
    pressure; the request is still sent and the window check fails it if it cannot fit.
    """
    hard, soft = thresholds.hard, thresholds.soft
    if hard is None or soft is None:
        return Decision(Action.NOTHING, pressure, "")
    if pressure.tokens < hard and not pressure.pending:
        if pressure.tokens >= soft:
            return Decision(Action.NOTHING, pressure.marked_pending(), "")
        return Decision(Action.NOTHING, pressure, "")
    if not enabled or suppression is not Suppression.NONE:
        return Decision(Action.NOTHING, pressure, "")
    forced = pressure.pending
    if pressure.tokens < hard and not forced:
        return Decision(Action.NOTHING, pressure, "")
    if not forced and history_len <= SMALL_HISTORY_MESSAGES:
        return Decision(Action.NOTHING, pressure, "")
    return Decision(Action.COMPACT, pressure, "hard" if pressure.tokens >= hard else "soft")
