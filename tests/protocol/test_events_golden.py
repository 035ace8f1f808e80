"""The `exec --json` / events.jsonl format: a golden file of every event type must keep loading."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vtcode.protocol.events import decode_event, encode_event
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    Reasoning,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

GOLDEN = Path(__file__).parent / "fixtures" / "events_v1.jsonl"
# Events as written since they carry `turn_id` and `ts`, with the event types added with them.
STAMPED = Path(__file__).parent / "fixtures" / "events_v1_stamped.jsonl"


def _kept(original: object, again: object) -> bool:
    """Whether every field of `original` is in `again` with the same value (at any depth)."""
    if isinstance(original, dict) and isinstance(again, dict):
        return all(k in again and _kept(v, again[k]) for k, v in original.items())
    return original == again


def test_events_written_before_stamps_still_load_and_keep_every_field() -> None:
    lines = GOLDEN.read_text().splitlines()
    types = set()
    for line in lines:
        event = decode_event(line)
        original = json.loads(line)
        types.add(original["type"])
        again = json.loads(encode_event(event))
        # Additive fields only: every original field is kept as it was; the new ones are defaults.
        assert _kept(original, again), (original, again)
        assert (again["turn_id"], again["ts"]) == (None, None)
    assert types == {
        "thread.started",
        "turn.started",
        "item.started",
        "item.updated",
        "item.completed",
        "thread.compacted",
        "intent.queued",
        "intent.applied",
        "notice",
        "turn.completed",
        "turn.failed",
    }


def test_stamped_events_round_trip_exactly() -> None:
    lines = STAMPED.read_text().splitlines()
    for line in lines:
        assert json.loads(encode_event(decode_event(line))) == json.loads(line)
    assert {json.loads(line)["type"] for line in lines} >= {
        "item.delta",
        "approval.requested",
        "approval.resolved",
        "session.paused",
        "session.resumed",
        "thread.compacted",
        "hook.started",
        "hook.completed",
        "hook.skipped",
        "plan.updated",
    }
    compacted = [json.loads(line) for line in lines if '"thread.compacted"' in line]
    # Since long turns: the calibration ratio the thresholds and the tail were planned with.
    assert [event["calibration_ratio"] for event in compacted] == [1.8]


def test_unknown_fields_are_rejected_rather_than_silently_dropped() -> None:
    with pytest.raises(msgspec.ValidationError):
        decode_event('{"type":"turn.started","schema_version":1,"surprise":1}')


_text = st.text(max_size=40)
_meta = st.builds(MessageMeta, intent_id=st.none() | st.uuids().map(str), turn=st.none() | st.integers(0, 9))
_message = st.one_of(
    st.builds(UserMessage, content=_text, meta=_meta),
    st.builds(
        AssistantMessage,
        content=_text,
        reasoning=st.lists(st.builds(Reasoning, text=_text, signature=st.none() | _text), max_size=2).map(
            tuple
        ),
        tool_calls=st.lists(st.builds(ToolCall, id=_text, name=_text, arguments=_text), max_size=3).map(
            tuple
        ),
        meta=_meta,
    ),
    st.builds(
        ToolResultMessage, call_id=_text, name=_text, content=_text, is_error=st.booleans(), meta=_meta
    ),
)


@given(_message)
def test_messages_round_trip_with_their_intent_id(message: Message) -> None:
    decoded = msgspec.json.decode(msgspec.json.encode(message), type=Message)
    assert decoded == message
    assert decoded.meta.intent_id == message.meta.intent_id
