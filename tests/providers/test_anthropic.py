"""The Anthropic Messages adapter against a loopback server that speaks the real wire format."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
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
from vtcode.providers.anthropic import AnthropicClient, messages_path
from vtcode.providers.anthropic_request import build_request, output_limits, tool_input
from vtcode.providers.anthropic_stream import AnthropicStreamDecoder
from vtcode.providers.http import Endpoint
from vtcode.providers.sse import SseEvent, SseParser
from vtcode.testing.anthropic_server import AnthropicServer, render_reply, thinking_signature
from vtcode.testing.script import HttpError, RecordedRequest, Reply, ScriptToolCall, Step
from vtcode.testing.scripted_model import reply_events
from vtcode.testing.server import Frame, WireServer

FAST = RetryPolicy(max_retries=2, base_delay=0.01, max_delay=0.05)
HEADERS = {"x-api-key": "test-key", "anthropic-version": "2023-06-01"}
HELLO = ModelRequest(
    model="claude-test", system=SystemPrompt("You are terse."), messages=(UserMessage("hi"),)
)
TWO_CALLS = (
    ScriptToolCall("read_file", '{"path": "src/app.py", "limit": 200}', id="toolu_01"),
    ScriptToolCall("grep", '{"pattern": "def main", "glob": "**/*.py"}', id="toolu_02"),
)


def _endpoint(server: WireServer, policy: RetryPolicy = FAST) -> Endpoint:
    return Endpoint(
        provider="anthropic",
        base_url=server.base_url,
        headers=HEADERS,
        api_key_env="ANTHROPIC_API_KEY",
        retry=policy,
    )


async def _run(
    server: WireServer,
    request: ModelRequest = HELLO,
    *,
    policy: RetryPolicy = FAST,
    seen: list[StreamEvent] | None = None,
    notes: list[str] | None = None,
) -> list[StreamEvent]:
    """Stream one request through a fresh client; `seen` collects events even when it raises."""
    events: list[StreamEvent] = [] if seen is None else seen
    client = AnthropicClient(_endpoint(server, policy), notify=None if notes is None else notes.append)
    try:
        async for event in client.stream(request):
            events.append(event)
    finally:
        await client.aclose()
    return events


def _as_scripted(events: Iterable[StreamEvent]) -> list[StreamEvent]:
    """Our events with what the canonical mapping leaves out (response id, thinking signature) removed."""
    out: list[StreamEvent] = []
    for event in events:
        if isinstance(event, Completed):
            reasoning = tuple(msgspec.structs.replace(r, signature=None) for r in event.message.reasoning)
            message = msgspec.structs.replace(event.message, reasoning=reasoning)
            out.append(msgspec.structs.replace(event, message=message, response_id=None))
        else:
            out.append(event)
    return out


def _completed(events: Sequence[StreamEvent]) -> Completed:
    assert sum(isinstance(event, Completed) for event in events) == 1
    last = events[-1]
    assert isinstance(last, Completed)
    return last


# -- streaming ------------------------------------------------------------------------------------


async def test_streams_text_answer_with_usage() -> None:
    reply = Reply(text="Hello, wörld! All tests pass.", input_tokens=1200, cached_input_tokens=1000)
    with AnthropicServer([reply]) as server:
        events = await _run(server)
    assert _as_scripted(events) == reply_events(reply)
    assert events[-1] == Completed(
        AssistantMessage(content="Hello, wörld! All tests pass."),
        Usage(input_tokens=1200, output_tokens=5, cached_input_tokens=1000),
        "end_turn",
        "msg_loopback0001",
    )


async def test_parallel_tool_calls_reassembled_from_fragments() -> None:
    reply = Reply(text="Looking.", tool_calls=TWO_CALLS, chunk_size=3)
    with AnthropicServer([reply]) as server:
        events = await _run(server)
    assert _as_scripted(events) == reply_events(reply)
    assert sum(isinstance(e, ToolCallDelta) and e.index == 1 for e in events) > 10
    done = _completed(events)
    assert done.message.tool_calls == (
        ToolCall("toolu_01", "read_file", '{"path": "src/app.py", "limit": 200}'),
        ToolCall("toolu_02", "grep", '{"pattern": "def main", "glob": "**/*.py"}'),
    )
    assert done.stop_reason == "tool_use"


async def test_thinking_kept_apart_from_answer() -> None:
    reply = Reply(reasoning="The user wants a greeting.", text="Hi!", reasoning_tokens=7, chunk_size=5)
    with AnthropicServer([reply]) as server:
        events = await _run(server)
    assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "The user wants a greeting."
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Hi!"
    done = _completed(events)
    assert done.message == AssistantMessage(
        content="Hi!",
        reasoning=(
            Reasoning(text="The user wants a greeting.", signature=thinking_signature(reply.reasoning)),
        ),
    )
    assert done.usage.reasoning_tokens == 7


async def test_tool_call_without_argument_fragments_gets_empty_object() -> None:
    reply = Reply(tool_calls=(ScriptToolCall("list_files", "", id="toolu_9"),))
    with AnthropicServer([reply]) as server:
        events = await _run(server)
    assert events[:2] == [ToolCallStarted(0, "toolu_9", "list_files"), ToolCallDelta(0, "{}")]
    assert _completed(events).message.tool_calls == (ToolCall("toolu_9", "list_files", "{}"),)


@pytest.mark.parametrize(
    ("wire", "ours"),
    [
        ("stop_sequence", "end_turn"),
        ("max_tokens", "max_tokens"),
        ("refusal", "content_filter"),
        ("pause_turn", "other"),
    ],
)
async def test_stop_reason_mapping(wire: str, ours: str) -> None:
    with AnthropicServer([Reply(text="x", stop_reason=wire)]) as server:
        events = await _run(server)
    assert _completed(events).stop_reason == ours


# -- request body ---------------------------------------------------------------------------------

READ_SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
RUN_SCHEMA = {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]}


async def test_request_body_snapshot() -> None:
    request = ModelRequest(
        model="claude-sonnet-4-5",
        system=SystemPrompt(static="You are vtcode.", appendix="# INSTRUCTIONS\nUse pytest."),
        messages=(
            UserMessage("Fix the failing test."),
            AssistantMessage(
                content="Let me look.",
                reasoning=(
                    Reasoning(text="Read the test first.", signature="sig-1"),
                    Reasoning(redacted="opaque"),
                ),
                tool_calls=(
                    ToolCall("toolu_1", "read_file", '{"path": "tests/test_a.py"}'),
                    ToolCall("toolu_2", "run", '{"cmd": "pytest"'),
                ),
            ),
            ToolResultMessage("toolu_1", "read_file", "def test_a(): assert f() == 2"),
            ToolResultMessage("toolu_2", "run", "invalid JSON arguments", is_error=True),
            UserMessage("Also check the docs."),
        ),
        tools=(
            ToolSpec("read_file", "Read a file.", READ_SCHEMA),
            ToolSpec("run", "Run a command.", RUN_SCHEMA),
        ),
        max_output_tokens=4096,
        reasoning_effort="low",
        temperature=0.2,
    )
    with AnthropicServer([Reply(text="ok")]) as server:
        await _run(server, request)
    [recorded] = server.requests
    assert recorded.path == "/v1/messages"
    assert {k: recorded.headers[k] for k in HEADERS} == HEADERS
    assert recorded.json() == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 4096,
        "system": [
            {"type": "text", "text": "You are vtcode.", "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": "# INSTRUCTIONS\nUse pytest."},
        ],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Fix the failing test."}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Read the test first.", "signature": "sig-1"},
                    {"type": "redacted_thinking", "data": "opaque"},
                    {"type": "text", "text": "Let me look."},
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "read_file",
                        "input": {"path": "tests/test_a.py"},
                    },
                    {
                        "type": "tool_use",
                        "id": "toolu_2",
                        "name": "run",
                        "input": {"_raw": '{"cmd": "pytest"'},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": "def test_a(): assert f() == 2",
                        "is_error": False,
                    },
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_2",
                        "content": "invalid JSON arguments",
                        "is_error": True,
                    },
                    # The moving conversation breakpoint sits on the newest block.
                    {"type": "text", "text": "Also check the docs.", "cache_control": {"type": "ephemeral"}},
                ],
            },
        ],
        "tools": [
            {"name": "read_file", "description": "Read a file.", "input_schema": READ_SCHEMA},
            {
                "name": "run",
                "description": "Run a command.",
                "input_schema": RUN_SCHEMA,
                "cache_control": {"type": "ephemeral"},
            },
        ],
        # Temperature is left out: the API refuses it while thinking is enabled.
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "stream": True,
    }


def test_plain_request_sends_temperature_and_default_max_tokens() -> None:
    request = ModelRequest(
        model="claude-haiku",
        system=SystemPrompt("Be brief."),
        messages=(
            UserMessage("one"),
            UserMessage("two"),
            AssistantMessage(content="", reasoning=(Reasoning(text="unsigned"),)),
            UserMessage("three"),
        ),
        temperature=0.3,
    )
    assert build_request(request) == {
        "model": "claude-haiku",
        "max_tokens": 8192,
        "system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
        # Consecutive user messages merge; an assistant message with nothing sendable is dropped.
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "one"},
                    {"type": "text", "text": "two"},
                    {"type": "text", "text": "three", "cache_control": {"type": "ephemeral"}},
                ],
            }
        ],
        "temperature": 0.3,
        "stream": True,
    }


def test_thinking_budget_stays_below_max_tokens() -> None:
    assert output_limits(None, None) == (8192, None)
    assert output_limits(None, "none") == (8192, None)
    assert output_limits(None, "low") == (8192, 2048)
    assert output_limits(None, "medium") == (12288, 8192)
    assert output_limits(None, "high") == (28672, 24576)
    assert output_limits(10000, "high") == (10000, 9999)
    assert output_limits(1024, "low") == (1024, None)


def test_tool_input_keeps_unparsable_arguments() -> None:
    assert tool_input("") == {}
    assert tool_input('{"a": [1, 2]}') == {"a": [1, 2]}
    assert tool_input('{"a": ') == {"_raw": '{"a": '}
    assert tool_input("[1, 2]") == {"_raw": "[1, 2]"}


def test_messages_path_accepts_base_url_with_or_without_version() -> None:
    assert messages_path("https://api.anthropic.com") == "v1/messages"
    assert messages_path("http://127.0.0.1:8080/v1/") == "messages"


# -- faults ---------------------------------------------------------------------------------------


async def test_retry_after_429_waits_then_succeeds() -> None:
    script: list[Step] = [
        HttpError(
            429,
            "Number of request tokens has exceeded your per-minute rate limit",
            headers={"Retry-After": "1"},
        ),
        Reply(text="ok"),
    ]
    notes: list[str] = []
    with AnthropicServer(script) as server:
        events = await _run(server, notes=notes)
    first, second = server.requests
    assert second.received_at - first.received_at >= 1.0
    assert _completed(events).message.content == "ok"
    assert len(notes) == 1


async def test_persistent_500_fails_after_bounded_retries() -> None:
    with (
        AnthropicServer([HttpError(500, "Internal server error")] * 3) as server,
        pytest.raises(ProviderError) as info,
    ):
        await _run(server)
    assert info.value.kind is ProviderErrorKind.SERVER
    assert info.value.message == "anthropic: HTTP 500: Internal server error (after 2 retries)"
    assert len(server.requests) == 3


async def test_overloaded_529_is_retried() -> None:
    with AnthropicServer([HttpError(529, "Overloaded"), Reply(text="ok")]) as server:
        events = await _run(server)
    assert _completed(events).message.content == "ok"
    assert len(server.requests) == 2


async def test_401_is_auth_error_naming_the_key_variable() -> None:
    with (
        AnthropicServer([HttpError(401, "invalid x-api-key")]) as server,
        pytest.raises(ProviderError) as info,
    ):
        await _run(server)
    assert info.value.kind is ProviderErrorKind.AUTH
    assert info.value.hint == "check the API key in ANTHROPIC_API_KEY"
    assert len(server.requests) == 1


async def test_drop_before_output_is_retried_transparently() -> None:
    reply = Reply(text="recovered answer")
    with AnthropicServer([Reply(text="lost", drop_after=1), reply]) as server:
        events = await _run(server)
    assert _as_scripted(events) == reply_events(reply)
    assert len(server.requests) == 2


async def test_a_drop_after_text_only_is_retried_without_repeating_the_text() -> None:
    seen: list[StreamEvent] = []
    # Frames: message_start, ping, content_block_start, then text deltas; the drop cuts after two deltas.
    replies = [Reply(text="abcdefgh", chunk_size=2, drop_after=5), Reply(text="abcdefgh", chunk_size=2)]
    with AnthropicServer(replies) as server:
        await _run(server, seen=seen)
    assert seen[:-1] == [TextDelta("ab"), TextDelta("cd"), TextDelta("ef"), TextDelta("gh")]
    assert isinstance(seen[-1], Completed)
    assert seen[-1].message.content == "abcdefgh"
    assert len(server.requests) == 2


async def test_malformed_chunk_is_invalid_response() -> None:
    with (
        AnthropicServer([Reply(text="hello", malformed_after=2)]) as server,
        pytest.raises(ProviderError) as info,
    ):
        await _run(server)
    assert info.value.kind is ProviderErrorKind.INVALID_RESPONSE
    assert len(server.requests) == 1


async def test_prompt_too_long_is_context_overflow() -> None:
    overflow = HttpError(400, "prompt is too long: 210000 tokens > 200000 maximum")
    with AnthropicServer([overflow]) as server, pytest.raises(ProviderError) as info:
        await _run(server)
    assert info.value.kind is ProviderErrorKind.CONTEXT_OVERFLOW
    assert info.value.message == "anthropic: HTTP 400: prompt is too long: 210000 tokens > 200000 maximum"
    assert len(server.requests) == 1


class _OverloadedFirst(AnthropicServer):
    """Answers the first request with an in-stream `overloaded_error` right after `message_start`."""

    def render(self, reply: Reply, request: RecordedRequest) -> Iterable[Frame]:
        frames = list(super().render(reply, request))
        if len(self.requests) > 1:
            return frames
        error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
        return [frames[0], Frame(json.dumps(error), event="error")]


async def test_in_stream_overloaded_error_is_retried() -> None:
    with _OverloadedFirst([Reply(text="a"), Reply(text="ok")]) as server:
        events = await _run(server)
    assert _completed(events).message.content == "ok"
    assert len(server.requests) == 2


def test_in_stream_error_is_classified() -> None:
    decoder = AnthropicStreamDecoder("anthropic", api_key_env="ANTHROPIC_API_KEY")
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    with pytest.raises(ProviderError) as info:
        decoder.feed(SseEvent("error", json.dumps(body)))
    assert (info.value.kind, info.value.status, info.value.retryable) == (ProviderErrorKind.SERVER, 529, True)


def test_stream_without_message_stop_is_retryable_network_error() -> None:
    decoder = AnthropicStreamDecoder("anthropic")
    for frame in render_reply(Reply(text="cut"))[:-1]:
        decoder.feed(SseEvent(frame.event, frame.data))
    with pytest.raises(ProviderError) as info:
        decoder.close()
    assert info.value.kind is ProviderErrorKind.NETWORK
    assert info.value.message == "anthropic: network error: stream ended before completion"


# -- contract with the official SDK ---------------------------------------------------------------


async def test_official_sdk_agrees_with_our_decoder(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    import anthropic

    monkeypatch.setenv("HOME", str(tmp_path))
    reply = Reply(
        reasoning="Two lookups, in parallel.",
        text="Reading both files.",
        tool_calls=TWO_CALLS,
        chunk_size=3,
        input_tokens=900,
        cached_input_tokens=600,
        output_tokens=42,
    )
    with AnthropicServer([reply, reply]) as server:
        done = _completed(await _run(server))
        # The SDK appends `/v1/messages` to a host-root base URL, as ANTHROPIC_BASE_URL is written.
        sdk = anthropic.AsyncAnthropic(
            api_key="dummy", base_url=server.base_url.removesuffix("/v1"), max_retries=0
        )
        try:
            async with sdk.messages.stream(
                model="claude-test", max_tokens=1024, messages=[{"role": "user", "content": "hi"}]
            ) as stream:
                final = await stream.get_final_message()
        finally:
            await sdk.close()
    assert server.requests[1].path == "/v1/messages"
    assert "".join(b.text for b in final.content if b.type == "text") == done.message.content
    assert [(b.thinking, b.signature) for b in final.content if b.type == "thinking"] == [
        (r.text, r.signature) for r in done.message.reasoning
    ]
    assert [(b.id, b.name, b.input) for b in final.content if b.type == "tool_use"] == [
        (c.id, c.name, json.loads(c.arguments)) for c in done.message.tool_calls
    ]
    usage = final.usage
    cached = usage.cache_read_input_tokens or 0
    created = usage.cache_creation_input_tokens or 0
    assert done.usage == Usage(
        input_tokens=usage.input_tokens + cached + created,
        output_tokens=usage.output_tokens,
        cached_input_tokens=cached,
        cache_creation_input_tokens=created,
    )
    assert (final.stop_reason, done.stop_reason) == ("tool_use", "tool_use")


# -- property: byte splits do not change the result -------------------------------------------------


@st.composite
def _replies(draw: st.DrawFn) -> Reply:
    json_values = st.one_of(st.integers(), st.booleans(), st.text(max_size=8))
    arguments = st.dictionaries(st.text(max_size=6), json_values, max_size=3).map(
        lambda value: json.dumps(value, ensure_ascii=False)
    )
    names = st.from_regex(r"[a-z_]{1,12}", fullmatch=True)
    calls = draw(st.lists(st.tuples(names, arguments), max_size=3))
    total = draw(st.integers(0, 10_000))
    return Reply(
        text=draw(st.text(max_size=40)),
        reasoning=draw(st.text(max_size=40)),
        # Explicit ids, so the server and the canonical mapping name the calls alike.
        tool_calls=tuple(ScriptToolCall(n, a, id=f"toolu_{i}") for i, (n, a) in enumerate(calls)),
        input_tokens=total,
        cached_input_tokens=draw(st.integers(0, total)),
        output_tokens=draw(st.integers(0, 5_000)),
        reasoning_tokens=draw(st.integers(0, 100)),
        chunk_size=draw(st.integers(1, 6)),
    )


def _decode(pieces: Iterable[bytes]) -> list[StreamEvent]:
    parser = SseParser()
    decoder = AnthropicStreamDecoder("anthropic")
    events: list[StreamEvent] = []
    for piece in pieces:
        for sse in parser.feed(piece):
            events += decoder.feed(sse)
    for sse in parser.close():
        events += decoder.feed(sse)
    decoder.close()
    return events


@settings(max_examples=200, deadline=None)
@given(reply=_replies(), data=st.data())
def test_byte_splits_decode_like_the_whole_stream(reply: Reply, data: st.DataObject) -> None:
    wire = b"".join(frame.encode() for frame in render_reply(reply))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=30)))
    pieces = [wire[start:end] for start, end in zip([0, *cuts], [*cuts, len(wire)], strict=True)]
    whole = _decode([wire])
    assert _decode(pieces) == whole
    assert _as_scripted(whole) == reply_events(reply)


def test_at_most_three_cache_breakpoints_and_the_last_on_the_newest_block() -> None:
    request = ModelRequest(
        model="claude-sonnet-4-5",
        system=SystemPrompt(static="static", appendix="appendix"),
        messages=(
            UserMessage("go"),
            AssistantMessage(tool_calls=(ToolCall("t1", "read_file", '{"path": "a"}'),)),
            ToolResultMessage("t1", "read_file", "contents"),
        ),
        tools=(ToolSpec("read_file", "Read a file.", READ_SCHEMA),),
    )
    body = build_request(request)
    assert json.dumps(body).count('"cache_control"') == 3
    assert body["messages"][-1]["content"][-1] == {
        "type": "tool_result",
        "tool_use_id": "t1",
        "content": "contents",
        "is_error": False,
        "cache_control": {"type": "ephemeral"},
    }
    # Earlier messages stay unmarked, so their bytes do not change from one request to the next.
    assert "cache_control" not in json.dumps(body["messages"][:-1])
