"""Anthropic's compaction edit on the wire: the request that asks for it and the paused reply it gets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from vtcode.core.retry import RetryPolicy
from vtcode.protocol.errors import ProviderError, ProviderErrorKind
from vtcode.protocol.messages import AssistantMessage, ToolCall, ToolResultMessage, Usage, UserMessage
from vtcode.protocol.model import Completed, ModelRequest, StreamEvent, SystemPrompt, ToolSpec
from vtcode.providers.anthropic import AnthropicClient
from vtcode.providers.anthropic_compaction import CHECKPOINT_TEXT, CompactionStreamDecoder
from vtcode.providers.anthropic_stream import AnthropicStreamDecoder
from vtcode.providers.base import InlineCompaction, InlineCompactionReply
from vtcode.providers.http import Endpoint
from vtcode.providers.sse import SseEvent
from vtcode.testing.anthropic_server import AnthropicServer, render_reply
from vtcode.testing.script import HttpError, Reply, Step
from vtcode.testing.server import Frame

FAST = RetryPolicy(max_retries=2, base_delay=0.01, max_delay=0.05)
HEADERS = {"x-api-key": "test-key", "anthropic-version": "2023-06-01"}
READ = ToolSpec("read_file", "Read a file.", {"type": "object", "properties": {}})
HISTORY = (
    UserMessage("fix the parser"),
    AssistantMessage(tool_calls=(ToolCall("toolu_1", "read_file", '{"path": "p.py"}'),)),
    ToolResultMessage(call_id="toolu_1", name="read_file", content="def parse(): ..."),
)
REQUEST = ModelRequest(
    model="claude-sonnet-4-6", system=SystemPrompt("You code."), messages=HISTORY, tools=(READ,)
)


async def _compact(
    script: list[Step],
    request: ModelRequest = REQUEST,
    *,
    headers: dict[str, str] | None = None,
    instructions: str | None = None,
    provider: str = "anthropic",
) -> tuple[InlineCompactionReply, list[dict[str, Any]], list[dict[str, str]]]:
    with AnthropicServer(script) as server:
        endpoint = Endpoint(
            provider=provider, base_url=server.base_url, headers=headers or HEADERS, retry=FAST
        )
        client = AnthropicClient(endpoint)
        try:
            reply = await client.compact_inline(request, trigger_tokens=50_000, instructions=instructions)
        finally:
            await client.aclose()
        return reply, [r.json() for r in server.requests], [r.headers for r in server.requests]


async def test_the_request_carries_the_compaction_edit_and_its_beta() -> None:
    _, (body,), (headers,) = await _compact([Reply(compaction="summary")])
    assert body["context_management"] == {
        "edits": [
            {
                "type": "compact_20260112",
                "trigger": {"type": "input_tokens", "value": 50_000},
                "pause_after_compaction": True,
            }
        ]
    }
    assert headers["anthropic-beta"] == "compact-2026-01-12"
    assert headers["x-api-key"] == "test-key"
    # The request is the session's own: same system prompt, tools and history (prompt cache hits).
    assert body["stream"] is True
    assert [tool["name"] for tool in body["tools"]] == ["read_file"]
    assert body["system"][0]["text"] == "You code."
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]


async def test_instructions_are_trimmed_into_the_edit_and_betas_already_sent_are_kept() -> None:
    headers = {**HEADERS, "anthropic-beta": "context-1m-2025-08-07"}
    _, (body,), (sent,) = await _compact(
        [Reply(compaction="summary")], headers=headers, instructions="  keep the file paths \n"
    )
    assert body["context_management"]["edits"][0]["instructions"] == "keep the file paths"
    assert sent["anthropic-beta"] == "context-1m-2025-08-07,compact-2026-01-12"
    _, (blank,), _ = await _compact([Reply(compaction="summary")], instructions="   ")
    assert "instructions" not in blank["context_management"]["edits"][0]


async def test_a_streamed_compaction_pause_is_read_whole() -> None:
    summary = "The user is fixing the parser; p.py was read. " * 20
    reply, _, _ = await _compact([Reply(compaction=summary)])
    # The usage the stream reported goes with the reply, for the session's accounting.
    assert reply == InlineCompactionReply(
        compaction=summary, stop_reason="compaction", usage=Usage(input_tokens=10, output_tokens=5)
    )


async def test_a_history_ending_with_the_answer_gets_a_checkpoint_user_turn() -> None:
    answered = ModelRequest(
        model="claude-sonnet-4-6",
        system=SystemPrompt("You code."),
        messages=(UserMessage("hi"), AssistantMessage(content="hello")),
    )
    _, (body,), _ = await _compact([Reply(compaction="summary")], answered)
    assert body["messages"][-1] == {
        "role": "user",
        "content": [{"type": "text", "text": CHECKPOINT_TEXT, "cache_control": {"type": "ephemeral"}}],
    }
    _, (kept,), _ = await _compact([Reply(compaction="summary")])
    assert CHECKPOINT_TEXT not in str(kept["messages"])


async def test_an_edit_that_did_not_fire_is_an_ordinary_answer_left_unread() -> None:
    reply, _, _ = await _compact([Reply(text="Here is the fix. " * 200)])
    # The first block is text: the stream is closed there, before its stop reason.
    # What was reported before the close (the prompt) is still accounted for.
    assert reply == InlineCompactionReply(
        compaction=None, stop_reason=None, usage=Usage(input_tokens=10, output_tokens=1)
    )


async def test_normal_requests_carry_no_edit_and_no_beta() -> None:
    with AnthropicServer([Reply(text="ok")]) as server:
        client = AnthropicClient(Endpoint(provider="anthropic", base_url=server.base_url, headers=HEADERS))
        async for _ in client.stream(REQUEST):
            pass
        await client.aclose()
        (request,) = server.requests
    assert "context_management" not in request.json()
    assert "anthropic-beta" not in request.headers


@pytest.mark.parametrize("status", [400, 500])
async def test_a_refused_compaction_request_raises_a_provider_error(status: int) -> None:
    script: list[Step] = [HttpError(status, "compaction is not supported on this model")] * 3
    with pytest.raises(ProviderError) as caught:
        await _compact(script)
    kind = ProviderErrorKind.BAD_REQUEST if status == 400 else ProviderErrorKind.SERVER
    assert caught.value.kind is kind


def test_only_anthropics_own_host_offers_inline_compaction() -> None:
    own = AnthropicClient(Endpoint(provider="anthropic", base_url="https://api.anthropic.com"))
    other = AnthropicClient(Endpoint(provider="gateway", base_url="https://gateway.example/v1"))
    assert isinstance(own, InlineCompaction)
    assert own.inline_compaction
    assert not other.inline_compaction


def _feed(decoder: AnthropicStreamDecoder, frames: list[Frame]) -> list[StreamEvent]:
    out: list[StreamEvent] = []
    for frame in frames:
        out += decoder.feed(SseEvent(event=frame.event, data=frame.data))
    return out


def test_a_summary_sent_whole_in_the_start_block_is_read() -> None:
    frames = [
        Frame(json.dumps({"type": "message_start", "message": {"id": "msg_1", "usage": {}}})),
        Frame(
            json.dumps(
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "compaction", "content": "whole summary"},
                }
            )
        ),
        Frame(json.dumps({"type": "content_block_stop", "index": 0})),
        Frame(json.dumps({"type": "message_delta", "delta": {"stop_reason": "compaction"}})),
        Frame(json.dumps({"type": "message_stop"})),
    ]
    decoder = AnthropicStreamDecoder("anthropic")
    _feed(decoder, frames)
    assert (decoder.compaction, decoder.stop_reason, decoder.done) == ("whole summary", "compaction", True)


def test_a_compaction_before_the_answer_stays_out_of_the_answer() -> None:
    frames = render_reply(Reply(compaction="the summary", text="the answer"))
    decoder = AnthropicStreamDecoder("anthropic")
    events = _feed(decoder, frames)
    completed = events[-1]
    assert isinstance(completed, Completed)
    assert completed.message.content == "the answer"
    assert completed.stop_reason == "end_turn"
    assert decoder.compaction == "the summary"
    # The compaction request's decoder reads past a compaction block to its stop reason.
    reader = CompactionStreamDecoder("anthropic")
    _feed(reader, render_reply(Reply(compaction="the summary")))
    assert (reader.compaction, reader.stop_reason) == ("the summary", "compaction")
