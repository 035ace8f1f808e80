"""Messages of exact token sizes for the worked examples of reference 14.3 (`msg@tokens`).

The examples count text by characters (`len`), so a message of n tokens is its label padded to n - 4
characters (4 is the per-message overhead).
"""

from __future__ import annotations

from vtcode.core.tokens import MessageEstimator
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)


def estimator() -> MessageEstimator:
    """An estimator that counts one token per character."""
    return MessageEstimator(len)


def user(label: str, tokens: int = 20, intent: str | None = None) -> Message:
    """A user message of `tokens` tokens."""
    return UserMessage(label.ljust(tokens - 4, "."), meta=MessageMeta(intent_id=intent))


def reply(label: str, tokens: int = 20) -> Message:
    """A plain assistant message of `tokens` tokens."""
    return AssistantMessage(content=label.ljust(tokens - 4, "."))


def calls(*ids: str, text: str = "") -> Message:
    """An assistant message calling `run` once per id."""
    return AssistantMessage(content=text, tool_calls=tuple(ToolCall(i, "run", "{}") for i in ids))


def result(call_id: str, text: str = "ok") -> Message:
    """The result of call `call_id`."""
    return ToolResultMessage(call_id=call_id, name="run", content=text)
