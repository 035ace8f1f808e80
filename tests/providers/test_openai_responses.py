"""The OpenAI Responses adapter against its loopback server, the official SDK, and split byte streams."""

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
from vtcode.providers.openai_responses import OpenAIResponsesClient
from vtcode.providers.openai_responses_stream import ResponsesStreamDecoder
from vtcode.providers.sse import SseEvent, SseParser
from vtcode.testing.openai_responses_server import OpenAIResponsesServer, response_frames
from vtcode.testing.script import HttpError, Reply, ScriptToolCall
from vtcode.testing.scripted_model import reply_events
from vtcode.testing.server import WireServer

FAST = RetryPolicy(base_delay=0.01, max_retries=2)
REQUEST = ModelRequest(
    model="gpt-test", system=SystemPrompt("You are vtcode."), messages=(UserMessage("hi"),)
)
TWO_CALLS = (
    ScriptToolCall("read_file", '{"path": "src/vtcode/__init__.py", "limit": 200}'),
    ScriptToolCall("grep", '{"pattern": "def main", "glob": "**/*.py"}'),
)


def endpoint(server: WireServer, retry: RetryPolicy = FAST) -> Endpoint:
    return Endpoint(
        "openai",
        server.base_url,
        headers={"authorization": "Bearer sk-test"},
        api_key_env="OPENAI_API_KEY",
        retry=retry,
    )


async def collect(client: OpenAIResponsesClient, request: ModelRequest = REQUEST) -> list[StreamEvent]:
    try:
        return [event async for event in client.stream(request)]
    finally:
        await client.aclose()


async def failure(client: OpenAIResponsesClient, seen: list[StreamEvent] | None = None) -> ProviderError:
    seen = [] if seen is None else seen

    async def run() -> None:
        async for event in client.stream(REQUEST):
            seen.append(event)

    with pytest.raises(ProviderError) as caught:
        await run()
    await client.aclose()
    return caught.value


def without_ids(events: list[StreamEvent]) -> list[StreamEvent]:
    """Events with the provider's item and response ids removed, to compare with `reply_events`."""
    out: list[StreamEvent] = []
    for event in events:
        if not isinstance(event, Completed):
            out.append(event)
            continue
        message = msgspec.structs.replace(
            event.message,
            reasoning=tuple(Reasoning(text=r.text) for r in event.message.reasoning),
            tool_calls=tuple(msgspec.structs.replace(c, item_id=None) for c in event.message.tool_calls),
        )
        out.append(msgspec.structs.replace(event, message=message, response_id=None))
    return out


def no_wait() -> tuple[list[float], Any]:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    return waits, sleep


# -- 1-3: streams -----------------------------------------------------------------------------------------


async def test_streams_text_and_reports_usage() -> None:
    reply = Reply(
        text="The answer is 42, as usual.", input_tokens=120, output_tokens=9, cached_input_tokens=100
    )
    with OpenAIResponsesServer([reply]) as server:
        events = await collect(OpenAIResponsesClient(endpoint(server)))
    assert without_ids(events) == reply_events(reply)
    assert events[-1] == Completed(
        AssistantMessage(content="The answer is 42, as usual."),
        Usage(input_tokens=120, output_tokens=9, cached_input_tokens=100),
        "end_turn",
        "resp_0001",
    )
    assert server.requests[0].path == "/v1/responses"
    assert server.requests[0].headers["authorization"] == "Bearer sk-test"


async def test_parallel_tool_calls_reassembled_from_fragments() -> None:
    reply = Reply(tool_calls=TWO_CALLS, chunk_size=3)
    with OpenAIResponsesServer([reply]) as server:
        events = await collect(OpenAIResponsesClient(endpoint(server)))
    assert without_ids(events) == reply_events(reply)
    fragments = [e for e in events if isinstance(e, ToolCallDelta)]
    assert len(fragments) > 20
    completed = events[-1]
    assert isinstance(completed, Completed)
    assert completed.stop_reason == "tool_use"
    assert completed.message.tool_calls == (
        ToolCall("call_0", "read_file", TWO_CALLS[0].arguments, item_id="fc_0001_0"),
        ToolCall("call_1", "grep", TWO_CALLS[1].arguments, item_id="fc_0001_1"),
    )


def test_interleaved_call_fragments_are_kept_apart() -> None:
    decoder = ResponsesStreamDecoder("openai")

    def feed(kind: str, **fields: Any) -> list[StreamEvent]:
        return decoder.feed(SseEvent(kind, json.dumps({"type": kind, **fields})))

    def call(index: int, name: str) -> dict[str, Any]:
        return {"type": "function_call", "id": f"fc_{index}", "call_id": f"call_{name}", "name": name}

    events = feed("response.output_item.added", output_index=1, item={**call(1, "a"), "arguments": ""})
    events += feed("response.output_item.added", output_index=3, item={**call(3, "b"), "arguments": ""})
    for item_id, piece in [("fc_3", '{"y"'), ("fc_1", '{"x"'), ("fc_3", ": 2}"), ("fc_1", ": 1}")]:
        events += feed("response.function_call_arguments.delta", item_id=item_id, delta=piece)
    events += feed("response.completed", response={"id": "resp_1", "usage": None})
    assert events == [
        ToolCallStarted(0, "call_a", "a"),
        ToolCallStarted(1, "call_b", "b"),
        ToolCallDelta(1, '{"y"'),
        ToolCallDelta(0, '{"x"'),
        ToolCallDelta(1, ": 2}"),
        ToolCallDelta(0, ": 1}"),
        Completed(
            AssistantMessage(
                tool_calls=(
                    ToolCall("call_a", "a", '{"x": 1}', item_id="fc_1"),
                    ToolCall("call_b", "b", '{"y": 2}', item_id="fc_3"),
                )
            ),
            Usage(),
            "tool_use",
            "resp_1",
        ),
    ]


def test_unknown_events_and_items_are_ignored() -> None:
    decoder = ResponsesStreamDecoder("openai")
    search = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"query": "q"}}
    frames = [
        {"type": "response.created", "response": {"id": "resp_9"}},
        {"type": "response.output_item.added", "output_index": 0, "item": search},
        {"type": "response.mcp_call_arguments.delta", "output_index": 0, "delta": {"partial": True}},
        {"type": "response.output_item.done", "output_index": 0, "item": search},
        {"type": "response.output_text.delta", "output_index": 1, "item_id": "msg_1", "delta": "hi"},
        {"type": "response.output_text.annotation.added", "annotation": {"type": "url_citation"}},
        {"type": "response.completed", "response": {"id": "resp_9"}},
    ]
    events = [e for frame in frames for e in decoder.feed(SseEvent(None, json.dumps(frame)))]
    events += decoder.feed(SseEvent(None, "[DONE]"))
    decoder.close()
    assert events == [
        TextDelta("hi"),
        Completed(AssistantMessage(content="hi"), Usage(), "end_turn", "resp_9"),
    ]


def test_stream_closed_before_the_terminal_event_is_a_retryable_network_error() -> None:
    decoder = ResponsesStreamDecoder("openai")
    decoder.feed(SseEvent("response.created", '{"type": "response.created", "response": {"id": "r"}}'))
    with pytest.raises(ProviderError) as caught:
        decoder.close()
    assert caught.value.kind is ProviderErrorKind.NETWORK
    assert "stream ended before completion" in caught.value.message
    assert caught.value.retryable


async def test_reasoning_kept_apart_and_sent_back_encrypted() -> None:
    reply = Reply(reasoning="The user wants files; ls first.", text="Listing.", reasoning_tokens=7)
    request = msgspec.structs.replace(REQUEST, reasoning_effort="medium")
    with OpenAIResponsesServer([reply, Reply(text="ok")]) as server:
        client = OpenAIResponsesClient(endpoint(server))
        events = [event async for event in client.stream(request)]
        completed = events[-1]
        assert isinstance(completed, Completed)
        follow_up = msgspec.structs.replace(request, messages=(*request.messages, completed.message))
        await collect(client, follow_up)
    assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == reply.reasoning
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Listing."
    assert completed.message.content == "Listing."
    (reasoning,) = completed.message.reasoning
    assert reasoning.text == reply.reasoning
    assert reasoning.item_id == "rs_0001_0"
    assert reasoning.encrypted_content
    assert completed.usage.reasoning_tokens == 7
    sent_back = server.requests[1].json()["input"][1:]
    assert sent_back == [
        {
            "type": "reasoning",
            "id": "rs_0001_0",
            "summary": [{"type": "summary_text", "text": reply.reasoning}],
            "encrypted_content": reasoning.encrypted_content,
        },
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Listing."}]},
    ]


async def test_incomplete_response_stops_at_max_tokens() -> None:
    reply = Reply(text="It was a dark and", stop_reason="max_tokens")
    with OpenAIResponsesServer([reply]) as server:
        events = await collect(OpenAIResponsesClient(endpoint(server)))
    completed = events[-1]
    assert isinstance(completed, Completed)
    assert (completed.message.content, completed.stop_reason) == ("It was a dark and", "max_tokens")


# -- 4: the request body ----------------------------------------------------------------------------------


async def test_request_body_snapshot() -> None:
    request = ModelRequest(
        model="gpt-5.1-codex",
        system=SystemPrompt(static="You are vtcode.", appendix="# INSTRUCTIONS\nUse tabs."),
        messages=(
            UserMessage("Fix the failing test."),
            AssistantMessage(
                content="Looking at the tests.",
                reasoning=(Reasoning(text="Check tests first.", item_id="rs_1", encrypted_content="gAAAAB"),),
                tool_calls=(
                    ToolCall("call_a", "read_file", '{"path":"tests/test_x.py"}', item_id="fc_a"),
                    ToolCall("call_b", "exec_command", '{"cmd":"pytest -x"}', item_id="fc_b"),
                ),
            ),
            ToolResultMessage("call_a", "read_file", "def test_x(): assert f() == 2"),
            ToolResultMessage("call_b", "exec_command", "exit 1", is_error=True),
        ),
        tools=(
            ToolSpec(
                "read_file", "Read a file.", {"type": "object", "properties": {"path": {"type": "string"}}}
            ),
        ),
        max_output_tokens=4096,
        reasoning_effort="high",
        cache_key="session-1",
    )
    with OpenAIResponsesServer([Reply(text="done")]) as server:
        await collect(OpenAIResponsesClient(endpoint(server)), request)
    assert server.requests[0].json() == {
        "model": "gpt-5.1-codex",
        "instructions": "You are vtcode.",
        "input": [
            {
                "type": "message",
                "role": "developer",
                "content": [{"type": "input_text", "text": "# INSTRUCTIONS\nUse tabs."}],
            },
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Fix the failing test."}],
            },
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": "Check tests first."}],
                "encrypted_content": "gAAAAB",
            },
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Looking at the tests."}],
            },
            {
                "type": "function_call",
                "call_id": "call_a",
                "name": "read_file",
                "arguments": '{"path":"tests/test_x.py"}',
                "id": "fc_a",
            },
            {
                "type": "function_call",
                "call_id": "call_b",
                "name": "exec_command",
                "arguments": '{"cmd":"pytest -x"}',
                "id": "fc_b",
            },
            {"type": "function_call_output", "call_id": "call_a", "output": "def test_x(): assert f() == 2"},
            {"type": "function_call_output", "call_id": "call_b", "output": "ERROR: exit 1"},
        ],
        "stream": True,
        "store": False,
        "tools": [
            {
                "type": "function",
                "name": "read_file",
                "description": "Read a file.",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
                "strict": False,
            }
        ],
        "parallel_tool_calls": True,
        "max_output_tokens": 4096,
        "reasoning": {"effort": "high", "summary": "auto"},
        "include": ["reasoning.encrypted_content"],
        "prompt_cache_key": "session-1",
    }


async def test_reasoning_without_encrypted_content_is_not_sent_back() -> None:
    # Under store=false the id alone is a dangling reference, and an fc_ id without its reasoning item
    # is rejected: both are left out, the call itself (call_id, name, arguments) still goes.
    history = AssistantMessage(
        reasoning=(Reasoning(text="hmm", item_id="rs_1"),),
        tool_calls=(ToolCall("call_a", "ls", "{}", item_id="fc_a"),),
    )
    request = msgspec.structs.replace(REQUEST, messages=(UserMessage("hi"), history))
    with OpenAIResponsesServer([Reply(text="ok")]) as server:
        await collect(OpenAIResponsesClient(endpoint(server)), request)
    assert server.requests[0].json() == {
        "model": "gpt-test",
        "instructions": "You are vtcode.",
        "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
            {"type": "function_call", "call_id": "call_a", "name": "ls", "arguments": "{}"},
        ],
        "stream": True,
        "store": False,
    }


# -- 5: faults --------------------------------------------------------------------------------------------


async def test_rate_limit_honours_retry_after_and_retries_once() -> None:
    limited = HttpError(
        429,
        "Rate limit reached for gpt-test on requests per min (RPM): Limit 3, Used 3, Requested 1.",
        code="rate_limit_exceeded",
        headers={"Retry-After": "1"},
    )
    notes: list[str] = []
    with OpenAIResponsesServer([limited, Reply(text="ok")]) as server:
        events = await collect(OpenAIResponsesClient(endpoint(server), notify=notes.append))
    first, second = server.requests
    assert second.received_at - first.received_at >= 1.0
    assert isinstance(events[-1], Completed)
    assert events[-1].message.content == "ok"
    assert len(notes) == 1


async def test_persistent_server_error_gives_up_after_bounded_retries() -> None:
    broken = HttpError(500, "The server had an error while processing your request. Sorry about that!")
    waits, sleep = no_wait()
    with OpenAIResponsesServer([broken] * 3) as server:
        error = await failure(OpenAIResponsesClient(endpoint(server), sleep=sleep))
    assert error.kind is ProviderErrorKind.SERVER
    assert len(server.requests) == 3
    assert len(waits) == 2


async def test_unauthorized_names_the_key_variable() -> None:
    denied = HttpError(401, "Incorrect API key provided: sk-test.", code="invalid_api_key")
    with OpenAIResponsesServer([denied]) as server:
        error = await failure(OpenAIResponsesClient(endpoint(server)))
    assert error.kind is ProviderErrorKind.AUTH
    assert error.hint == "check the API key in OPENAI_API_KEY"
    assert len(server.requests) == 1


async def test_drop_before_output_is_retried_transparently() -> None:
    reply = Reply(text="hello again")
    waits, sleep = no_wait()
    with OpenAIResponsesServer([Reply(text="lost", drop_after=1), reply]) as server:
        events = await collect(OpenAIResponsesClient(endpoint(server), sleep=sleep))
    assert without_ids(events) == reply_events(reply)
    assert len(server.requests) == 2
    assert len(waits) == 1


async def test_a_drop_after_text_only_is_retried_without_repeating_the_text() -> None:
    seen: list[StreamEvent] = []
    replies = [Reply(text="a longer answer", chunk_size=2, drop_after=6), Reply(text="a longer answer")]
    with OpenAIResponsesServer(replies) as server:
        client = OpenAIResponsesClient(endpoint(server))
        try:
            async for event in client.stream(REQUEST):
                seen.append(event)
        finally:
            await client.aclose()
    assert "".join(e.text for e in seen if isinstance(e, TextDelta)) == "a longer answer"
    assert seen[:2] == [TextDelta("a "), TextDelta("lo")]
    assert len(server.requests) == 2


async def test_malformed_chunk_is_invalid_response() -> None:
    with OpenAIResponsesServer([Reply(text="hello", malformed_after=3)]) as server:
        error = await failure(OpenAIResponsesClient(endpoint(server)))
    assert error.kind is ProviderErrorKind.INVALID_RESPONSE
    assert len(server.requests) == 1


async def test_context_length_error_is_context_overflow() -> None:
    too_long = HttpError(
        400,
        "Your input exceeds the context window of this model. Please adjust your input and try again.",
        error_type="invalid_request_error",
        code="context_length_exceeded",
    )
    with OpenAIResponsesServer([too_long]) as server:
        error = await failure(OpenAIResponsesClient(endpoint(server)))
    assert error.kind is ProviderErrorKind.CONTEXT_OVERFLOW
    assert error.status == 400


@pytest.mark.parametrize(
    ("kind", "payload", "expected"),
    [
        (
            "response.failed",
            {
                "response": {
                    "id": "r",
                    "status": "failed",
                    "error": {"code": "context_length_exceeded", "message": "Too big."},
                }
            },
            ProviderErrorKind.CONTEXT_OVERFLOW,
        ),
        (
            "response.failed",
            {
                "response": {
                    "id": "r",
                    "status": "failed",
                    "error": {"code": "server_error", "message": "Oops."},
                }
            },
            ProviderErrorKind.SERVER,
        ),
        (
            "error",
            {"code": "rate_limit_exceeded", "message": "Slow down.", "param": None},
            ProviderErrorKind.RATE_LIMIT,
        ),
        (
            "error",
            {"code": "insufficient_quota", "message": "You exceeded your current quota."},
            ProviderErrorKind.QUOTA,
        ),
    ],
)
def test_errors_inside_the_stream_are_classified(
    kind: str, payload: dict[str, Any], expected: ProviderErrorKind
) -> None:
    decoder = ResponsesStreamDecoder("openai")
    with pytest.raises(ProviderError) as caught:
        decoder.feed(SseEvent(kind, json.dumps({"type": kind, "sequence_number": 3, **payload})))
    assert caught.value.kind is expected


# -- 6: the official SDK reads our server the same way we do -------------------------------------------------


async def test_official_sdk_agrees_with_our_decoder() -> None:
    import openai

    reply = Reply(
        reasoning="Two lookups needed.",
        text="Let me check both.",
        tool_calls=TWO_CALLS,
        chunk_size=3,
        input_tokens=321,
        output_tokens=54,
        cached_input_tokens=256,
        reasoning_tokens=12,
    )
    with OpenAIResponsesServer([reply, reply]) as server:
        ours = await collect(OpenAIResponsesClient(endpoint(server)))
        sdk = openai.AsyncOpenAI(base_url=server.base_url, api_key="sk-dummy", max_retries=0)
        text_deltas: list[str] = []
        arguments: dict[str, str] = {}
        async with sdk.responses.stream(model="gpt-test", input="hi") as stream:
            async for event in stream:
                if event.type == "response.output_text.delta":
                    text_deltas.append(event.delta)
                elif event.type == "response.function_call_arguments.delta":
                    arguments[event.item_id] = event.snapshot
            final = await stream.get_final_response()
        await sdk.close()
    completed = ours[-1]
    assert isinstance(completed, Completed)
    message = completed.message
    assert final.output_text == "".join(text_deltas) == message.content
    summaries = [s.text for item in final.output if item.type == "reasoning" for s in item.summary]
    assert summaries == [r.text for r in message.reasoning]
    sdk_calls = [(i.call_id, i.name, i.arguments) for i in final.output if i.type == "function_call"]
    assert sdk_calls == [(c.id, c.name, c.arguments) for c in message.tool_calls]
    assert list(arguments.values()) == [c.arguments for c in message.tool_calls]
    assert final.usage is not None
    sdk_usage = Usage(
        input_tokens=final.usage.input_tokens,
        output_tokens=final.usage.output_tokens,
        cached_input_tokens=final.usage.input_tokens_details.cached_tokens,
        reasoning_tokens=final.usage.output_tokens_details.reasoning_tokens,
    )
    assert sdk_usage == completed.usage


# -- 7: any split of the byte stream decodes to the same result ---------------------------------------------


def decode(chunks: list[bytes]) -> list[StreamEvent]:
    parser = SseParser()
    decoder = ResponsesStreamDecoder("openai")
    events: list[StreamEvent] = []
    for chunk in chunks:
        for sse in parser.feed(chunk):
            events += decoder.feed(sse)
    for sse in parser.close():
        events += decoder.feed(sse)
    decoder.close()
    return events


tool_calls = st.lists(
    st.builds(
        ScriptToolCall,
        name=st.from_regex(r"[a-z_]{1,12}", fullmatch=True),
        arguments=st.dictionaries(st.text(max_size=6), st.text(max_size=12), max_size=3).map(json.dumps),
    ),
    max_size=3,
).map(tuple)
replies = st.builds(
    Reply,
    text=st.text(max_size=40),
    reasoning=st.text(max_size=30),
    tool_calls=tool_calls,
    chunk_size=st.integers(1, 9),
    input_tokens=st.integers(0, 10**6),
    output_tokens=st.integers(0, 10**5),
    cached_input_tokens=st.integers(0, 1000),
    reasoning_tokens=st.integers(0, 1000),
)


@settings(max_examples=150, deadline=None)
@given(reply=replies, data=st.data())
def test_split_byte_stream_decodes_to_the_same_completion(reply: Reply, data: st.DataObject) -> None:
    body = {"model": "gpt-test", "include": ["reasoning.encrypted_content"]}
    raw = b"".join(frame.encode() for frame in response_frames(reply, body))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=40)))
    pieces = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    whole = decode([raw])
    assert decode(pieces) == whole
    assert without_ids(whole) == reply_events(reply)
