"""Last checks before a request: it must fit the window, and a compaction must have gained (SPEC 6.6, 6.8)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from vtcode.core.compaction.thresholds import Thresholds
from vtcode.protocol.messages import AssistantMessage, Message, SystemMessage, ToolResultMessage, UserMessage

Estimate = Callable[[Message], int]
_LABEL_CHARS = 60


class Item(msgspec.Struct, frozen=True):
    """One large message of a request, described for a person."""

    index: int
    tokens: int
    label: str


def biggest_items(messages: Sequence[Message], estimate: Estimate, limit: int = 3) -> list[Item]:
    """The `limit` largest messages, largest first, each labelled by what it is (a tool result, a file...)."""
    ranked = sorted(range(len(messages)), key=lambda index: estimate(messages[index]), reverse=True)
    return [Item(index, estimate(messages[index]), describe(messages[index])) for index in ranked[:limit]]


def describe(message: Message) -> str:
    """A short label: `exec_command result "…"`, `user message "…"`, `assistant call read_file`."""
    match message:
        case ToolResultMessage(name=name, content=text):
            return f"{name} result {_quote(text)}"
        case UserMessage(content=text):
            return f"user message {_quote(text)}"
        case SystemMessage(content=text):
            return f"system note {_quote(text)}"
        case AssistantMessage(tool_calls=calls) if calls:
            return "assistant call " + ", ".join(call.name for call in calls)
        case AssistantMessage(content=text):
            return f"assistant message {_quote(text)}"


def _quote(text: str) -> str:
    line = " ".join(text.split())
    return f'"{line[:_LABEL_CHARS]}…"' if len(line) > _LABEL_CHARS else f'"{line}"'


def over_window_message(request_tokens: int, window: int, items: Sequence[Item]) -> str | None:
    """The turn's failure text when a request of `request_tokens` cannot fit `window`; None when it fits."""
    if window <= 0 or request_tokens <= window:
        return None
    biggest = "; ".join(f"{item.label} ({item.tokens:,} tokens)" for item in items)
    return (
        f"the next request needs about {request_tokens:,} tokens but the model's window is {window:,}, "
        f"even after compaction; the largest items are: {biggest}"
    )


def gained_enough(tokens_after: int, limits: Thresholds) -> bool:
    """Whether a compaction brought the history under the soft threshold (SPEC 6.6 gain check).

    A compaction that leaves pressure above the soft threshold would fire again at the next boundary,
    and again: the runtime fails the turn instead of looping.
    """
    return limits.soft is None or tokens_after < limits.soft


def recovery_split(messages: Sequence[Message], turn_start: int) -> int:
    """Where a post-tool recovery compaction stops (reference 5.7): the user message that opened the turn.

    That is the last user message at or before `turn_start`, else `turn_start` itself. Everything from
    there on is re-appended verbatim; 0 means there is nothing older to compact.
    """
    start = min(turn_start, len(messages) - 1)
    for index in range(start, -1, -1):
        if isinstance(messages[index], UserMessage):
            return index
    return max(0, min(turn_start, len(messages)))
