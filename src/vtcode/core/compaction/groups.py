"""Protocol groups and the continuity tail (reference section 6.1-6.4).

A group starts at a user message and runs to the next one. An assistant message with tool calls and all
its results are atomic: a selection never splits them, and an incomplete trailing call is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from vtcode.core.compaction.truncate import shorten
from vtcode.core.images import with_image_notes
from vtcode.core.tokens import ATTACHMENT_TOKENS, TextCounter
from vtcode.protocol.messages import AssistantMessage, Message, ToolResultMessage, UserMessage

Estimate = Callable[[Message], int]


def valid_prefix_len(group: Sequence[Message]) -> int:
    """How many leading messages of a group form a valid protocol sequence (reference 6.1).

    While calls are outstanding only their results may follow, in any order; an unknown result, any other
    message, or the end of the group cuts the group back to the assistant message that opened the calls.
    """
    if not group or not isinstance(group[0], UserMessage):
        return 0
    outstanding: set[str] = set()
    opened_at = 0
    for index, message in enumerate(group):
        if outstanding:
            if isinstance(message, ToolResultMessage) and message.call_id in outstanding:
                outstanding.discard(message.call_id)
                continue
            return opened_at
        if isinstance(message, AssistantMessage) and message.tool_calls:
            ids = [call.id for call in message.tool_calls]
            if "" in ids or len(set(ids)) != len(ids):
                return index
            outstanding = set(ids)
            opened_at = index
    return opened_at if outstanding else len(group)


def group_starts(messages: Sequence[Message]) -> list[int]:
    """Indices of the user messages: each starts a protocol group."""
    return [index for index, message in enumerate(messages) if isinstance(message, UserMessage)]


def group_ranges(messages: Sequence[Message]) -> list[range]:
    """The protocol groups as index ranges, oldest first; messages before the first user are in none."""
    starts = group_starts(messages)
    ends = [*starts[1:], len(messages)] if starts else []
    return [range(start, end) for start, end in zip(starts, ends, strict=True)]


class TailSelection(msgspec.Struct, frozen=True):
    """`[start, end)` is kept verbatim; `[end:]` is an incomplete trailing call, dropped entirely."""

    start: int
    end: int
    tokens: int
    oversized: bool


def select_tail(messages: Sequence[Message], estimate: Estimate, target: int) -> TailSelection | None:
    """Walk whole groups back from the newest while their sum stays at or under `target` (reference 6.2).

    None when there is no user message. The newest group is always selected, flagged oversized when it
    alone exceeds the target; an incomplete older group stops the walk.
    """
    ranges = group_ranges(messages)
    if not ranges:
        return None
    last = ranges[-1]
    tail_end = last.start + valid_prefix_len(messages[last.start : last.stop])
    selected = 0
    start: int | None = None
    for position in range(len(ranges) - 1, -1, -1):
        group = ranges[position]
        end = tail_end if position == len(ranges) - 1 else group.stop
        if position != len(ranges) - 1 and valid_prefix_len(messages[group.start : end]) != len(group):
            break
        tokens = sum(estimate(messages[index]) for index in range(group.start, end))
        if start is None and tokens > target:
            return TailSelection(start=group.start, end=tail_end, tokens=tokens, oversized=True)
        if selected + tokens > target:
            break
        selected += tokens
        start = group.start
    assert start is not None  # the newest group always fits or is returned oversized above
    return TailSelection(start=start, end=tail_end, tokens=selected, oversized=False)


def bounded_group(
    group: Sequence[Message], estimate: Estimate, target: int, count: TextCounter
) -> list[Message]:
    """An oversized newest group cut to about `target`: each message within `target // len(group)` tokens.

    Call ids and names survive, so every result still answers its call; metadata (the intent id) is
    kept, unlike the reference, because steering recovery matches on it (SPEC 6.8).
    """
    budget = max(4, target // max(1, len(group)))
    return [message if estimate(message) <= budget else preview(message, budget, count) for message in group]


def preview(message: Message, budget: int, count: TextCounter) -> Message:
    """`message` shortened to about `budget` tokens, keeping its role, ids and metadata."""
    room = max(0, budget - 4)
    match message:
        case AssistantMessage(tool_calls=calls):
            calls_room = max(0, room - count(message.content[: room * 4]))
            shortened_calls = tuple(
                msgspec.structs.replace(call, arguments="{}")
                if len(call.arguments.encode()) > 4 * max(1, calls_room // max(1, len(calls)))
                else call
                for call in calls
            )
            call_cost = sum(20 + count(call.name) + count(call.arguments) for call in shortened_calls)
            return msgspec.structs.replace(
                message,
                content=shorten(message.content, max(0, room - call_cost), count),
                reasoning=(),
                tool_calls=shortened_calls,
            )
        case ToolResultMessage():
            room_for_text = max(0, room - count(message.call_id))
            return msgspec.structs.replace(message, content=shorten(message.content, room_for_text, count))
        case UserMessage(images=images) if images and ATTACHMENT_TOKENS * len(images) > room:
            # The images cannot fit: the model reads what they were instead of losing them unsaid.
            text = shorten(message.content, max(0, room - 16 * len(images)), count)
            noted = with_image_notes(text, images, "left out to fit the context window")
            return msgspec.structs.replace(message, content=noted, images=())
        case _:
            return msgspec.structs.replace(message, content=shorten(message.content, room, count))
