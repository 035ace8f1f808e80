"""The Chat Completions adapter against its loopback server, the official SDK, and split byte streams."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtcode.core.retry import RetryPolicy
from vtcode.protocol.errors import ProviderError, ProviderErrorKind
from vtcode.protocol.messages import (
    AssistantMessage,
    Reasoning,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from vtcode.protocol.model import (
    Completed,
    ModelRequest,
    ReasoningDelta,
    StreamEvent,
    SystemPrompt,
    TextDelta,
    ToolCallDelta,
    ToolCallStarted,
    ToolSpec,
)
from vtcode.providers.http import Endpoint
from vtcode.providers.openai_chat import OpenAIChatClient
from vtcode.providers.openai_chat_request import build_chat_request
from vtcode.providers.openai_chat_stream import ChatStreamDecoder
from vtcode.providers.sse import SseEvent, SseParser
from vtcode.testing.openai_chat_server import OpenAIChatServer, chat_stream_frames
from vtcode.testing.script import HttpError, Reply, ScriptToolCall
from vtcode.testing.scripted_model import reply_events
from vtcode.testing.server import WireServer

REQUEST = ModelRequest(
    model="gpt-test", system=SystemPrompt(static="You are vtcode."), messages=(UserMessage("hi"),)
)
FAST_RETRY = RetryPolicy(max_retries=2, base_delay=0.01, max_delay=0.05)
OVERFLOW_MESSAGE = (
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."
)
TWO_CALLS = (
    ScriptToolCall("read_file", '{"path": "src/vtcode/app.py", "limit": 200}', id="call_read"),
    ScriptToolCall("exec_command", '{"cmd": ["pytest", "-q", "tests/"], "timeout": 60}', id="call_exec"),
)


def make_client(
    server: WireServer, *, provider: str = "openai", notes: list[str] | None = None
) -> OpenAIChatClient:
    endpoint = Endpoint(provider, server.base_url, api_key_env="OPENAI_API_KEY", retry=FAST_RETRY)
    return OpenAIChatClient(endpoint, notify=None if notes is None else notes.append)


async def collect(
    server: WireServer,
    request: ModelRequest = REQUEST,
    *,
    into: list[StreamEvent] | None = None,
    notes: list[str] | None = None,
) -> list[StreamEvent]:
    events = [] if into is None else into
    client = make_client(server, notes=notes)
    try:
        async for event in client.stream(request):
            events.append(event)
    finally:
        await client.aclose()
    return events


def without_ids(events: list[StreamEvent]) -> list[StreamEvent]:
    """Events with the response id dropped: the scripted model has none, the wire always does."""
    return [msgspec.structs.replace(e, response_id=None) if isinstance(e, Completed) else e for e in events]


def final(events: list[StreamEvent]) -> Completed:
    assert sum(isinstance(e, Completed) for e in events) == 1
    last = events[-1]
    assert isinstance(last, Completed)
    return last


# -- streaming -------------------------------------------------------------------------------------


async def test_streams_text_with_usage() -> None:
    reply = Reply(text="Hello, wörld!", input_tokens=1200, output_tokens=7, cached_input_tokens=1024)
    with OpenAIChatServer([reply]) as server:
        events = await collect(server)
    assert without_ids(events) == [
        TextDelta("Hell"),
        TextDelta("o, w"),
        TextDelta("örld"),
        TextDelta("!"),
        Completed(
            AssistantMessage(content="Hello, wörld!"),
            Usage(input_tokens=1200, output_tokens=7, cached_input_tokens=1024),
            "end_turn",
        ),
    ]
    assert final(events).response_id == "chatcmpl-loopback-1"


async def test_reassembles_parallel_fragmented_tool_calls() -> None:
    reply = Reply(text="Checking.", tool_calls=TWO_CALLS, chunk_size=3)
    with OpenAIChatServer([reply]) as server:
        events = await collect(server)
    assert without_ids(events) == reply_events(reply)
    done = final(events)
    assert done.message.tool_calls == (
        ToolCall("call_read", "read_file", '{"path": "src/vtcode/app.py", "limit": 200}'),
        ToolCall("call_exec", "exec_command", '{"cmd": ["pytest", "-q", "tests/"], "timeout": 60}'),
    )
    assert done.stop_reason == "tool_use"
    assert sum(isinstance(e, ToolCallDelta) for e in events) > 20


async def test_keeps_reasoning_apart_from_answer() -> None:
    reply = Reply(reasoning="The user greets; answer briefly.", text="Hi!", reasoning_tokens=9)
    with OpenAIChatServer([reply]) as server:
        events = await collect(server)
    assert without_ids(events) == reply_events(reply)
    done = final(events)
    assert done.message.content == "Hi!"
    assert done.message.reasoning == (Reasoning(text="The user greets; answer briefly."),)
    assert done.usage.reasoning_tokens == 9
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Hi!"


async def test_length_finish_is_max_tokens() -> None:
    with OpenAIChatServer([Reply(text="cut sh", stop_reason="max_tokens")]) as server:
        events = await collect(server)
    assert final(events).stop_reason == "max_tokens"


# -- the request body ------------------------------------------------------------------------------

FULL_REQUEST = ModelRequest(
    model="gpt-5-mini",
    system=SystemPrompt(static="You are vtcode, a coding agent.", appendix="# INSTRUCTIONS\nUse pytest."),
    messages=(
        UserMessage("Fix the failing test."),
        AssistantMessage(
            content="Let me look.",
            reasoning=(Reasoning(text="Read the test first."),),
            tool_calls=(
                ToolCall("call_a", "read_file", '{"path": "tests/test_app.py"}'),
                ToolCall("call_b", "exec_command", '{"cmd": "pytest -q"}'),
            ),
        ),
        ToolResultMessage("call_a", "read_file", "def test_app(): assert add(1, 1) == 3"),
        ToolResultMessage("call_b", "exec_command", "1 failed", is_error=True),
    ),
    tools=(
        ToolSpec(
            "read_file",
            "Read a file in the workspace.",
            {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        ),
    ),
    max_output_tokens=4096,
    reasoning_effort="medium",
    cache_key="vtcode-session-1",
)


async def test_request_body_snapshot() -> None:
    with OpenAIChatServer([Reply(text="ok")]) as server:
        await collect(server, FULL_REQUEST)
    [recorded] = server.requests
    assert recorded.path == "/v1/chat/completions"
    assert recorded.headers["accept"] == "text/event-stream"
    assert recorded.json() == {
        "model": "gpt-5-mini",
        "messages": [
            {"role": "system", "content": "You are vtcode, a coding agent."},
            {"role": "system", "content": "# INSTRUCTIONS\nUse pytest."},
            {"role": "user", "content": "Fix the failing test."},
            {
                "role": "assistant",
                "content": "Let me look.",
                "tool_calls": [
                    {
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "read_file", "arguments": '{"path": "tests/test_app.py"}'},
                    },
                    {
                        "id": "call_b",
                        "type": "function",
                        "function": {"name": "exec_command", "arguments": '{"cmd": "pytest -q"}'},
                    },
                ],
            },
            {"role": "tool", "tool_call_id": "call_a", "content": "def test_app(): assert add(1, 1) == 3"},
            {"role": "tool", "tool_call_id": "call_b", "content": "ERROR: 1 failed"},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "read_file",
                    "description": "Read a file in the workspace.",
                    "parameters": {
                        "type": "object",
                        "properties": {"path": {"type": "string"}},
                        "required": ["path"],
                    },
                },
            }
        ],
        "max_completion_tokens": 4096,
        "reasoning_effort": "medium",
        "prompt_cache_key": "vtcode-session-1",
    }


def test_request_body_for_compatible_servers() -> None:
    request = ModelRequest(
        model="qwen3:8b",
        system=SystemPrompt(static="You are vtcode."),
        messages=(
            SystemMessage("Earlier context was compacted."),
            AssistantMessage(
                reasoning=(Reasoning(text="List first. "), Reasoning(text="Then read.")),
                tool_calls=(ToolCall("call_1", "list_files", ""),),
            ),
        ),
        max_output_tokens=1000,
        temperature=0.2,
        cache_key="ignored-here",
    )
    assistant_base: dict[str, Any] = {
        "role": "assistant",
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "list_files", "arguments": "{}"}}
        ],
    }
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are vtcode."},
        {"role": "system", "content": "Earlier context was compacted."},
    ]
    common = {"model": "qwen3:8b", "stream": True, "stream_options": {"include_usage": True}}
    assert build_chat_request(request, provider="vllm") == {
        **common,
        "messages": [*messages, {**assistant_base, "reasoning_content": "List first. Then read."}],
        "max_tokens": 1000,
        "temperature": 0.2,
    }
    assert build_chat_request(request, provider="ollama")["messages"][-1] == {
        **assistant_base,
        "reasoning": "List first. Then read.",
    }


# -- faults ----------------------------------------------------------------------------------------


async def test_429_with_retry_after_is_retried_once_after_waiting() -> None:
    limited = HttpError(
        429, "Rate limit reached for requests", code="rate_limit_exceeded", headers={"Retry-After": "1"}
    )
    notes: list[str] = []
    with OpenAIChatServer([limited, Reply(text="ok")]) as server:
        events = await collect(server, notes=notes)
    assert final(events).message.content == "ok"
    first, second = server.requests
    assert second.received_at - first.received_at >= 1.0
    assert len(notes) == 1
    assert "retrying in 1.0s" in notes[0]


async def test_persistent_500_is_server_error_after_bounded_retries() -> None:
    failing = [HttpError(500, "The server had an error")] * 4
    with OpenAIChatServer(failing) as server, pytest.raises(ProviderError) as info:
        await collect(server)
    assert info.value.kind is ProviderErrorKind.SERVER
    assert info.value.status == 500
    assert len(server.requests) == 3
    assert "(after 2 retries)" in info.value.message


async def test_401_is_auth_naming_the_key_variable() -> None:
    denied = HttpError(401, "Incorrect API key provided: sk-test.", code="invalid_api_key")
    with OpenAIChatServer([denied, Reply(text="never")]) as server, pytest.raises(ProviderError) as info:
        await collect(server)
    assert info.value.kind is ProviderErrorKind.AUTH
    assert info.value.hint == "check the API key in OPENAI_API_KEY"
    assert len(server.requests) == 1


async def test_drop_before_any_delta_is_retried_transparently() -> None:
    reply = Reply(text="All good.", tool_calls=TWO_CALLS[:1])
    with OpenAIChatServer([Reply(text="All good.", drop_after=1), reply]) as server:
        events = await collect(server)
    assert without_ids(events) == reply_events(reply)
    assert len(server.requests) == 2


async def test_a_drop_after_text_only_is_retried_without_repeating_the_text() -> None:
    # The pause between frames lets the deltas reach the client before the reset discards its buffer.
    broken = Reply(text="abcdefgh", chunk_size=2, drop_after=3, delay_between=0.2)
    events: list[StreamEvent] = []
    server = OpenAIChatServer([broken, Reply(text="abcdefgh", chunk_size=3)])
    with server:
        await collect(server, into=events)
    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert deltas == ["ab", "cd", "ef", "gh"]
    assert final(events).message.content == "abcdefgh"
    assert len(server.requests) == 2


async def test_a_retried_reply_that_differs_passes_its_differing_rest_on_and_says_so() -> None:
    broken = Reply(text="abcdefgh", chunk_size=2, drop_after=3, delay_between=0.2)
    events: list[StreamEvent] = []
    notes: list[str] = []
    with OpenAIChatServer([broken, Reply(text="abXYZ", chunk_size=2)]) as server:
        await collect(server, into=events, notes=notes)
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["ab", "cd", "XY", "Z"]
    assert final(events).message.content == "abXYZ"
    assert any("the retried reply differs" in note for note in notes)


async def test_a_drop_after_a_tool_call_started_is_a_partial_network_error() -> None:
    broken = Reply(tool_calls=TWO_CALLS[:1], chunk_size=4, drop_after=4, delay_between=0.2)
    events: list[StreamEvent] = []
    server = OpenAIChatServer([broken, Reply(text="replayed")])
    with server, pytest.raises(ProviderError) as info:
        await collect(server, into=events)
    assert any(isinstance(e, ToolCallStarted) for e in events)
    assert info.value.kind is ProviderErrorKind.NETWORK
    assert "the stream broke after partial output" in info.value.message
    assert len(server.requests) == 1


async def test_malformed_chunk_is_invalid_response() -> None:
    server = OpenAIChatServer([Reply(text="abc", malformed_after=1), Reply(text="abc")])
    with server, pytest.raises(ProviderError) as info:
        await collect(server)
    assert info.value.kind is ProviderErrorKind.INVALID_RESPONSE
    assert len(server.requests) == 1


async def test_context_length_400_is_context_overflow() -> None:
    overflow = HttpError(
        400, OVERFLOW_MESSAGE, error_type="invalid_request_error", code="context_length_exceeded"
    )
    with OpenAIChatServer([overflow]) as server, pytest.raises(ProviderError) as info:
        await collect(server)
    assert info.value.kind is ProviderErrorKind.CONTEXT_OVERFLOW
    assert info.value.message == f"openai: HTTP 400: {OVERFLOW_MESSAGE}"
    assert len(server.requests) == 1


# -- the decoder on hand-written chunks (what other compatible servers send) ------------------------


def feed_all(decoder: ChatStreamDecoder, chunks: list[dict[str, Any] | str]) -> list[StreamEvent]:
    events: list[StreamEvent] = []
    for chunk in chunks:
        data = chunk if isinstance(chunk, str) else json.dumps(chunk)
        events += decoder.feed(SseEvent(None, data))
    return events


def delta(payload: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-9", "choices": [{"index": 0, "delta": payload, "finish_reason": finish}]}


def call_part(index: int, arguments: str, **head: str) -> dict[str, Any]:
    function = {"arguments": arguments, **({"name": head["name"]} if "name" in head else {})}
    entry: dict[str, Any] = {"index": index, "function": function}
    if "id" in head:
        entry["id"] = head["id"]
    return delta({"tool_calls": [entry]})


def test_decoder_interleaved_calls_reasoning_alias_and_usage_variants() -> None:
    decoder = ChatStreamDecoder(provider="ollama")
    events = feed_all(
        decoder,
        [
            delta({"role": "assistant", "content": None, "reasoning": "two files"}),
            call_part(1, "", id="call_b", name="read_file"),
            call_part(0, "", id="call_a", name="list_files"),
            call_part(1, '{"path":'),
            call_part(0, "{}"),
            call_part(1, ' "b.py"}'),
            # Ollama and Gemini answer "stop" even when they called tools.
            delta({}, "stop"),
            {
                "id": "chatcmpl-9",
                "choices": [],
                "usage": {"prompt_tokens": 50, "prompt_cache_hit_tokens": 32},
            },
            "[DONE]",
            "ignored after the end",
        ],
    )
    assert events == [
        ReasoningDelta("two files"),
        ToolCallStarted(1, "call_b", "read_file"),
        ToolCallStarted(0, "call_a", "list_files"),
        ToolCallDelta(1, '{"path":'),
        ToolCallDelta(0, "{}"),
        ToolCallDelta(1, ' "b.py"}'),
        Completed(
            AssistantMessage(
                reasoning=(Reasoning(text="two files"),),
                tool_calls=(
                    ToolCall("call_a", "list_files", "{}"),
                    ToolCall("call_b", "read_file", '{"path": "b.py"}'),
                ),
            ),
            Usage(input_tokens=50, cached_input_tokens=32),
            "tool_use",
            "chatcmpl-9",
        ),
    ]


def test_decoder_calls_without_index_or_id() -> None:
    decoder = ChatStreamDecoder(provider="gemini")
    events = feed_all(
        decoder,
        [
            delta({"tool_calls": [{"function": {"name": "a", "arguments": '{"x": 1}'}}]}),
            delta({"tool_calls": [{"id": "g2", "function": {"name": "b", "arguments": "{}"}}]}),
            delta({}, "tool_calls"),
            "[DONE]",
        ],
    )
    assert isinstance(events[-1], Completed)
    assert events[-1].message.tool_calls == (
        ToolCall("call_chatcmpl-9_0", "a", '{"x": 1}'),
        ToolCall("g2", "b", "{}"),
    )


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (
            {"message": OVERFLOW_MESSAGE, "type": "invalid_request_error", "code": "context_length_exceeded"},
            ProviderErrorKind.CONTEXT_OVERFLOW,
        ),
        (
            {"message": "The server had an error", "type": "server_error", "code": None},
            ProviderErrorKind.SERVER,
        ),
        ({"message": "Provider returned error", "code": 429}, ProviderErrorKind.RATE_LIMIT),
    ],
)
def test_error_chunk_in_stream_is_classified(error: dict[str, Any], kind: ProviderErrorKind) -> None:
    decoder = ChatStreamDecoder(provider="openai", api_key_env="OPENAI_API_KEY")
    with pytest.raises(ProviderError) as info:
        feed_all(decoder, [delta({"content": "par"}), {"error": error}])
    assert info.value.kind is kind
    assert error["message"] in info.value.message


def test_stream_without_done_is_a_retryable_network_error() -> None:
    decoder = ChatStreamDecoder(provider="openai")
    feed_all(decoder, [delta({"content": "Hello"}), delta({}, "stop")])
    with pytest.raises(ProviderError) as info:
        decoder.close()
    assert info.value.kind is ProviderErrorKind.NETWORK
    assert info.value.retryable
    assert "stream ended before completion" in info.value.message


# -- the official SDK as the reference parser -------------------------------------------------------


async def test_official_sdk_agrees_with_our_decoder() -> None:
    import openai

    reply = Reply(
        text="Reading both files now.",
        reasoning="Two reads in parallel.",
        tool_calls=TWO_CALLS,
        chunk_size=3,
        input_tokens=2048,
        output_tokens=96,
        cached_input_tokens=1536,
        reasoning_tokens=40,
    )
    with OpenAIChatServer([reply, reply]) as server:
        ours = final(await collect(server))
        sdk = openai.AsyncOpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0)
        try:
            async with sdk.chat.completions.stream(
                model="gpt-test",
                messages=[{"role": "user", "content": "hi"}],
                stream_options={"include_usage": True},
            ) as stream:
                theirs = await stream.get_final_completion()
        finally:
            await sdk.close()
    assert server.requests[1].path == "/v1/chat/completions"
    [choice] = theirs.choices
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == ours.message.content
    assert (choice.message.model_extra or {}).get("reasoning_content") == ours.message.reasoning[0].text
    sdk_calls = tuple(
        ToolCall(call.id, call.function.name, call.function.arguments)
        for call in choice.message.tool_calls or ()
        if call.type == "function"
    )
    assert sdk_calls == ours.message.tool_calls
    usage = theirs.usage
    assert usage is not None
    assert usage.prompt_tokens_details is not None
    assert usage.completion_tokens_details is not None
    assert (
        Usage(
            input_tokens=usage.prompt_tokens,
            output_tokens=usage.completion_tokens,
            cached_input_tokens=usage.prompt_tokens_details.cached_tokens or 0,
            reasoning_tokens=usage.completion_tokens_details.reasoning_tokens or 0,
        )
        == ours.usage
    )


# -- split byte streams ----------------------------------------------------------------------------

_calls = st.builds(
    ScriptToolCall,
    name=st.from_regex(r"[a-z_]{1,12}", fullmatch=True),
    arguments=st.text(max_size=30),
)
_replies = st.builds(
    Reply,
    text=st.text(max_size=40),
    reasoning=st.text(max_size=20),
    tool_calls=st.lists(_calls, max_size=3).map(tuple),
    chunk_size=st.integers(1, 8),
    input_tokens=st.integers(0, 10**6),
    output_tokens=st.integers(0, 10**5),
    cached_input_tokens=st.integers(0, 10**6),
    reasoning_tokens=st.integers(0, 10**5),
)


def decode_pieces(pieces: list[bytes]) -> list[StreamEvent]:
    parser = SseParser()
    decoder = ChatStreamDecoder(provider="openai")
    events: list[StreamEvent] = []
    for piece in pieces:
        for sse in parser.feed(piece):
            events += decoder.feed(sse)
    for sse in parser.close():
        events += decoder.feed(sse)
    decoder.close()
    return events


@settings(max_examples=200, deadline=None)
@given(reply=_replies, data=st.data())
def test_split_stream_decodes_like_whole_stream(reply: Reply, data: st.DataObject) -> None:
    raw = b"".join(frame.encode() for frame in chat_stream_frames(reply))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=24)))
    pieces = [raw[start:end] for start, end in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    whole = decode_pieces([raw])
    split = decode_pieces(pieces)
    assert split == whole
    assert without_ids(split) == reply_events(reply)
