"""The three stream decoders share one accumulator: on every wire the streamed deltas add up to the reply."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vtcode.protocol.model import (
    Completed,
    ReasoningDelta,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolCallStarted,
)
from vtcode.providers.anthropic_stream import AnthropicStreamDecoder
from vtcode.providers.openai_chat_stream import ChatStreamDecoder
from vtcode.providers.openai_responses_stream import ResponsesStreamDecoder
from vtcode.providers.sse import SseParser
from vtcode.testing.anthropic_server import render_reply
from vtcode.testing.openai_chat_server import chat_stream_frames
from vtcode.testing.openai_responses_server import response_frames
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.server import Frame

Decoder = ChatStreamDecoder | ResponsesStreamDecoder | AnthropicStreamDecoder
WIRES: dict[str, tuple[Callable[[Reply], list[Frame]], Callable[[], Decoder]]] = {
    "chat": (chat_stream_frames, lambda: ChatStreamDecoder(provider="loopback")),
    "responses": (
        lambda reply: response_frames(reply, {"model": "m"}),
        lambda: ResponsesStreamDecoder("loopback"),
    ),
    "anthropic": (render_reply, lambda: AnthropicStreamDecoder("loopback")),
}

_text = st.text(st.characters(blacklist_categories=["Cs"]), max_size=40)
_calls = st.lists(
    st.tuples(
        st.sampled_from(["read_file", "grep_files", "apply_patch"]), st.dictionaries(_text, _text, max_size=3)
    ),
    max_size=3,
)


def _stream(wire: str, reply: Reply) -> list[StreamEvent]:
    """The events a decoder makes of the wire's bytes for `reply`, parsed as a client would."""
    render, make = WIRES[wire]
    data = b"".join(frame.encode() for frame in render(reply))
    parser = SseParser()
    decoder = make()
    events: list[StreamEvent] = []
    for sse in [*parser.feed(data), *parser.close()]:
        events += decoder.feed(sse)
    decoder.close()
    return events


@pytest.mark.parametrize("wire", sorted(WIRES))
@given(text=_text, reasoning=_text, calls=_calls, chunk=st.integers(min_value=1, max_value=7))
def test_streamed_deltas_add_up_to_the_completed_reply(
    wire: str, text: str, reasoning: str, calls: list[tuple[str, dict[str, str]]], chunk: int
) -> None:
    """Text, reasoning and each call's argument fragments, joined, are exactly what `Completed` holds."""
    script = tuple(
        ScriptToolCall(name, json.dumps(arguments), id=f"call_{i}")
        for i, (name, arguments) in enumerate(calls)
    )
    events = _stream(wire, Reply(text=text, reasoning=reasoning, tool_calls=script, chunk_size=chunk))

    completed = events[-1]
    assert isinstance(completed, Completed)
    assert [e for e in events if isinstance(e, Completed)] == [completed]
    message = completed.message
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == message.content == text
    assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "".join(
        r.text for r in message.reasoning
    )
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    assert [(e.index, e.id, e.name) for e in started] == [
        (i, call.id, call.name) for i, call in enumerate(message.tool_calls)
    ]
    for index, call in enumerate(message.tool_calls):
        fragments = [e.fragment for e in events if isinstance(e, ToolCallDelta) and e.index == index]
        assert "".join(fragments) == call.arguments
        assert json.loads(call.arguments) == json.loads(script[index].arguments)
    assert [call.name for call in message.tool_calls] == [call.name for call in script]
