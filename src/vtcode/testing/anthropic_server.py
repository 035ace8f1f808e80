"""A loopback server that speaks the Anthropic Messages streaming wire format."""

from __future__ import annotations

import hashlib
import itertools
import json
import threading
from collections.abc import Iterable
from typing import Any

from vtcode.testing.script import HttpError, RecordedRequest, Reply, call_id, fragments
from vtcode.testing.server import Frame, WireServer

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


class AnthropicServer(WireServer):
    """Plays `Reply` steps as `POST /v1/messages` event streams."""

    paths = ("/v1/messages",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._ids = itertools.count(1)
        self._ids_lock = threading.Lock()

    def render(self, reply: Reply, request: RecordedRequest) -> Iterable[Frame]:
        """The event stream of a successful reply."""
        try:
            model = str(request.json().get("model", "fake-model"))
        except ValueError:
            model = "fake-model"
        with self._ids_lock:
            number = next(self._ids)
        return render_reply(reply, model=model, message_id=f"msg_loopback{number:04d}")

    def error_body(self, error: HttpError) -> dict[str, object]:
        """`{"type": "error", "error": {"type": ..., "message": ...}}`, as the API sends it."""
        kind = error.error_type or _ERROR_TYPES.get(error.status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": error.message}}


def render_reply(reply: Reply, *, model: str = "fake-model", message_id: str = "msg_loopback") -> list[Frame]:
    """The frames the API sends for `reply`: compaction, thinking, text and tool_use blocks, in order."""
    frames = [_message_start(reply, model, message_id), _frame("ping", {})]
    index = 0
    if reply.compaction is not None:
        # The API opens the block with no content and sends the summary in `compaction_delta`s, each
        # with the opaque state a client may send back.
        deltas = [
            {"type": "compaction_delta", "content": p, "encrypted_content": "opaque-compaction-state"}
            for p in fragments(reply.compaction, max(reply.chunk_size, 64))
        ]
        frames += _block(index, {"type": "compaction", "content": None}, deltas)
        index += 1
    if reply.reasoning:
        start: dict[str, Any] = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [
            {"type": "thinking_delta", "thinking": p} for p in fragments(reply.reasoning, reply.chunk_size)
        ]
        # The real API sends the signature as the last delta of a thinking block, before its stop.
        deltas.append({"type": "signature_delta", "signature": thinking_signature(reply.reasoning)})
        frames += _block(index, start, deltas)
        index += 1
    if reply.text:
        deltas = [{"type": "text_delta", "text": p} for p in fragments(reply.text, reply.chunk_size)]
        frames += _block(index, {"type": "text", "text": ""}, deltas)
        index += 1
    for number, call in enumerate(reply.tool_calls):
        start = {"type": "tool_use", "id": call_id(call, number, "toolu"), "name": call.name, "input": {}}
        # A call without arguments still gets one empty fragment, as the API sends it.
        pieces = fragments(call.arguments, reply.chunk_size) or [""]
        frames += _block(index, start, [{"type": "input_json_delta", "partial_json": p} for p in pieces])
        index += 1
    stop_reason = reply.stop_reason or _stop_reason(reply)
    usage: dict[str, Any] = {"output_tokens": reply.output_tokens}
    if reply.reasoning_tokens:
        usage["output_tokens_details"] = {"thinking_tokens": reply.reasoning_tokens}
    frames.append(
        _frame(
            "message_delta", {"delta": {"stop_reason": stop_reason, "stop_sequence": None}, "usage": usage}
        )
    )
    frames.append(_frame("message_stop", {}))
    return frames


def _stop_reason(reply: Reply) -> str:
    if reply.tool_calls:
        return "tool_use"
    paused = reply.compaction is not None and not (reply.text or reply.reasoning)
    return "compaction" if paused else "end_turn"


def thinking_signature(reasoning: str) -> str:
    """A deterministic stand-in for the signature the API attaches to a thinking block."""
    return "sig_" + hashlib.sha256(reasoning.encode()).hexdigest()[:24]


def _message_start(reply: Reply, model: str, message_id: str) -> Frame:
    # Anthropic's input_tokens excludes cache reads; `Reply.input_tokens` is the whole prompt.
    cached = min(reply.cached_input_tokens, reply.input_tokens)
    written = min(reply.cache_write_tokens, reply.input_tokens - cached)
    message: dict[str, Any] = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {
            "input_tokens": reply.input_tokens - cached - written,
            "cache_creation_input_tokens": written,
            "cache_read_input_tokens": cached,
            "output_tokens": 1,
        },
    }
    return _frame("message_start", {"message": message})


def _block(index: int, start: dict[str, Any], deltas: list[dict[str, Any]]) -> list[Frame]:
    frames = [_frame("content_block_start", {"index": index, "content_block": start})]
    frames += [_frame("content_block_delta", {"index": index, "delta": delta}) for delta in deltas]
    frames.append(_frame("content_block_stop", {"index": index}))
    return frames


def _frame(kind: str, payload: dict[str, Any]) -> Frame:
    # Raw UTF-8 like the API (no \u escapes), so multi-byte characters can be split across reads.
    data = json.dumps({"type": kind, **payload}, ensure_ascii=False, separators=(",", ":"))
    return Frame(data=data, event=kind)
