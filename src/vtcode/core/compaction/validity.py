"""Checks a compacted history must pass before it replaces the old one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from vtcode.protocol.messages import AssistantMessage, Message, ToolResultMessage


def protocol_problems(messages: Sequence[Message]) -> list[str]:
    """Why a provider would reject this history: results without their call, calls without results.

    Results must directly follow the assistant message that made the calls (in any order among
    themselves); every call id of that message must be answered before anything else comes.
    """
    problems: list[str] = []
    outstanding: dict[str, int] = {}
    for index, message in enumerate(messages):
        if isinstance(message, ToolResultMessage):
            if message.call_id in outstanding:
                del outstanding[message.call_id]
            else:
                problems.append(f"message {index}: result for call {message.call_id!r} has no open call")
            continue
        problems += [f"message {at}: call {call_id!r} has no result" for call_id, at in outstanding.items()]
        outstanding = {}
        if isinstance(message, AssistantMessage) and message.tool_calls:
            ids = [call.id for call in message.tool_calls]
            if "" in ids or len(set(ids)) != len(ids):
                problems.append(f"message {index}: empty or repeated call id")
            outstanding = {call_id: index for call_id in ids if call_id}
    problems += [f"message {at}: call {call_id!r} has no result" for call_id, at in outstanding.items()]
    return problems


def intent_ids(messages: Iterable[Message]) -> list[str]:
    """The steering intent ids tagged in `messages`, in order."""
    return [message.meta.intent_id for message in messages if message.meta.intent_id is not None]


def lost_intent_ids(expected: Iterable[Message], compacted: Sequence[Message]) -> list[str]:
    """Intent ids tagged in `expected` that `compacted` no longer carries (with multiplicity)."""
    remaining = intent_ids(compacted)
    lost: list[str] = []
    for intent in intent_ids(expected):
        if intent in remaining:
            remaining.remove(intent)
        else:
            lost.append(intent)
    return lost
