"""The turn loop's extension points: before a model request, after a tool batch, at the end of a turn.

Compaction plugs in before a request (it sees the context pressure and may replace the history) and on a
context-overflow error (recovery compaction, then one retry), steering
after a tool batch (it may add user messages that the next request carries), bookkeeping at the end of a
turn. Hooks are awaited in registration order; none of them edits the loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import msgspec

from vtcode.core.context_pressure import ContextPressure
from vtcode.protocol.errors import ProviderError
from vtcode.protocol.messages import Message, ToolResultMessage
from vtcode.protocol.model import ModelRequest


class BeforeRequest(msgspec.Struct, frozen=True):
    """A model request is about to be built from `messages` (the whole current history)."""

    turn: int
    request_no: int
    messages: Sequence[Message]
    pressure: ContextPressure
    # The request as it would be sent now (system prompt and tools included).
    request: ModelRequest | None = None


class HistoryReplacement(msgspec.Struct, frozen=True):
    """A new history to use from now on; it is checkpointed (durably) before the request is sent.

    `artifact_path` (relative to the session directory) names the archived history it replaced.
    """

    messages: Sequence[Message]
    summary: str = ""
    artifact_path: str | None = None
    # Called once the replacement is checkpointed (compaction reports `thread.compacted` only then).
    applied: Callable[[], None] | None = None


class ContextOverflow(msgspec.Struct, frozen=True):
    """The provider refused a request of the turn as too large for its context window."""

    turn: int
    messages: Sequence[Message]
    error: ProviderError


class AfterToolBatch(msgspec.Struct, frozen=True):
    """The results of one reply's tool calls were checkpointed."""

    turn: int
    results: Sequence[ToolResultMessage]


class TurnStart(msgspec.Struct, frozen=True):
    """A user turn begins with `text`, before its message is checkpointed."""

    turn: int
    text: str


class TurnEnd(msgspec.Struct, frozen=True):
    """A turn ended: `final_text` when it completed, `error` when it failed or was interrupted."""

    turn: int
    final_text: str | None = None
    error: BaseException | None = None


BeforeRequestHook = Callable[[BeforeRequest], Awaitable[HistoryReplacement | None]]
AfterToolBatchHook = Callable[[AfterToolBatch], Awaitable[Sequence[Message]]]
TurnEndHook = Callable[[TurnEnd], Awaitable[None]]
# Returns context messages to store before the user's message (a note for the model).
TurnStartHook = Callable[[TurnStart], Awaitable[Sequence[Message]]]
ContextOverflowHook = Callable[[ContextOverflow], Awaitable[HistoryReplacement | None]]


class TurnHooks(msgspec.Struct):
    """The hooks registered on a session."""

    before_request: list[BeforeRequestHook] = msgspec.field(default_factory=list)
    turn_start: list[TurnStartHook] = msgspec.field(default_factory=list)
    after_tool_batch: list[AfterToolBatchHook] = msgspec.field(default_factory=list)
    end_of_turn: list[TurnEndHook] = msgspec.field(default_factory=list)
    # Asked once per turn when a request overflows; a replacement is checkpointed and the request retried.
    context_overflow: list[ContextOverflowHook] = msgspec.field(default_factory=list)
