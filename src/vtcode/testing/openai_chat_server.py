"""A loopback server that speaks the Chat Completions streaming wire format, chunk for chunk as OpenAI does.

Reasoning goes out as `delta.reasoning_content` (the DeepSeek/vLLM/llama.cpp name); usage arrives in a last
chunk with no choices, only when the request asked for it with `stream_options.include_usage`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from vtcode.testing.script import HttpError, RecordedRequest, Reply, call_id, fragments
from vtcode.testing.server import Frame, WireServer

DONE_FRAME = Frame("[DONE]")

# Our stop reasons (what `Reply.stop_reason` names) to the wire's finish_reason; others pass verbatim.
_FINISH = {
    "end_turn": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "content_filter": "content_filter",
}


def chat_stream_frames(
    reply: Reply,
    *,
    model: str = "fake-model",
    include_usage: bool = True,
    response_id: str = "chatcmpl-loopback",
    created: int = 0,
) -> list[Frame]:
    """The SSE frames of `reply` as a Chat Completions stream, ending with `data: [DONE]`."""

    def chunk(choices: list[dict[str, Any]], usage: dict[str, Any] | None = None) -> Frame:
        body: dict[str, Any] = {
            "id": response_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "system_fingerprint": "fp_loopback",
            "choices": choices,
        }
        if include_usage:
            body["usage"] = usage
        # Raw UTF-8 (not \u escapes), so clients meet multi-byte characters split across reads.
        return Frame(json.dumps(body, ensure_ascii=False, separators=(",", ":")))

    def delta(payload: dict[str, Any]) -> Frame:
        return chunk([{"index": 0, "delta": payload, "logprobs": None, "finish_reason": None}])

    size = reply.chunk_size
    frames = [delta({"role": "assistant", "content": "", "refusal": None})]
    frames += [delta({"reasoning_content": part}) for part in fragments(reply.reasoning, size)]
    frames += [delta({"content": part}) for part in fragments(reply.text, size)]
    for index, call in enumerate(reply.tool_calls):
        head = {
            "index": index,
            "id": call_id(call, index, "call"),
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        frames.append(delta({"tool_calls": [head]}))
        frames += [
            delta({"tool_calls": [{"index": index, "function": {"arguments": part}}]})
            for part in fragments(call.arguments, size)
        ]
    stop = reply.stop_reason or ("tool_use" if reply.tool_calls else "end_turn")
    finish = _FINISH.get(stop, stop)
    frames.append(chunk([{"index": 0, "delta": {}, "logprobs": None, "finish_reason": finish}]))
    if include_usage:
        frames.append(chunk([], _usage(reply)))
    frames.append(DONE_FRAME)
    return frames


def _usage(reply: Reply) -> dict[str, Any]:
    return {
        "prompt_tokens": reply.input_tokens,
        "completion_tokens": reply.output_tokens,
        "total_tokens": reply.input_tokens + reply.output_tokens,
        "prompt_tokens_details": {"cached_tokens": reply.cached_input_tokens, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": reply.reasoning_tokens,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def _error_type(status: int) -> str:
    if status == 429:
        return "requests"
    if status >= 500:
        return "server_error"
    return "invalid_request_error"


class OpenAIChatServer(WireServer):
    """Loopback `POST /v1/chat/completions`; point a client at `base_url`."""

    paths = ("/v1/chat/completions",)

    def render(self, reply: Reply, request: RecordedRequest) -> Iterable[Frame]:
        """The frames of `reply`, echoing the request's model and honouring `include_usage`."""
        try:
            body = request.json()
        except ValueError:
            body = {}
        body = body if isinstance(body, dict) else {}
        options = body.get("stream_options")
        include_usage = isinstance(options, dict) and options.get("include_usage") is True
        return chat_stream_frames(
            reply,
            model=str(body.get("model", "fake-model")),
            include_usage=include_usage,
            response_id=f"chatcmpl-loopback-{len(self.requests)}",
            created=int(time.time()),
        )

    def error_body(self, error: HttpError) -> dict[str, object]:
        """OpenAI's error object: message, type, param, code."""
        return {
            "error": {
                "message": error.message,
                "type": error.error_type or _error_type(error.status),
                "param": None,
                "code": error.code,
            }
        }
