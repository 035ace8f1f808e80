"""What of the event stream is persisted: decided here, once, for every event type."""

from __future__ import annotations

from typing import assert_never

from vtcode.protocol.events import (
    ApprovalRequested,
    ApprovalResolved,
    Event,
    HookCompleted,
    HookSkipped,
    HookStarted,
    IntentApplied,
    IntentCancelled,
    IntentQueued,
    ItemCompleted,
    ItemDelta,
    ItemStarted,
    ItemUpdated,
    Notice,
    PlanUpdated,
    PolicyShadowed,
    SessionPaused,
    SessionResumed,
    ThreadCompacted,
    ThreadCompleted,
    ThreadStarted,
    ToolsChanged,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
    UsageSummary,
)


def persisted(event: Event) -> bool:
    """Whether `event` goes to the session's `events.jsonl`.

    Deltas are not kept: the completed item carries the whole text, and a long answer would otherwise be
    stored once per token. Everything else is the record of what happened.
    """
    match event:
        case ItemDelta():
            return False
        case (
            ThreadStarted()
            | TurnStarted()
            | ItemStarted()
            | ItemUpdated()
            | ItemCompleted()
            | ApprovalRequested()
            | ApprovalResolved()
            | PolicyShadowed()
            | ThreadCompacted()
            | IntentQueued()
            | IntentApplied()
            | IntentCancelled()
            | SessionPaused()
            | SessionResumed()
            | Notice()
            | ToolsChanged()
            | HookStarted()
            | HookCompleted()
            | HookSkipped()
            | PlanUpdated()
            | TurnCompleted()
            | TurnFailed()
            | UsageSummary()
            | ThreadCompleted()
        ):
            return True
        case _:
            assert_never(event)
