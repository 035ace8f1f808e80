"""A loopback server speaking the OpenAI Responses streaming wire format (`POST /v1/responses`).

It emits the event sequence the real API sends, with `sequence_number`s and complete response and item
objects, so the official SDK's stream accumulator accepts it: `response.created`, `response.in_progress`,
then per output item `output_item.added` / part and delta events / `output_item.done`, and finally
`response.completed` (or `response.incomplete` when the reply says it stopped at the token limit).
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

from vtcode.testing.script import HttpError, RecordedRequest, Reply, call_id, fragments
from vtcode.testing.server import Frame, WireServer

JsonObject = dict[str, Any]

_INCOMPLETE = {"max_tokens": "max_output_tokens", "content_filter": "content_filter"}


class OpenAIResponsesServer(WireServer):
    """Loopback `/v1/responses` server; ids are deterministic per request (`resp_0001`, `fc_0001_2`...)."""

    # `/responses/compact` answers `JsonReply` steps (OpenAI's standalone compaction endpoint).
    paths = ("/v1/responses", "/v1/responses/compact")

    def render(self, reply: Reply, request: RecordedRequest) -> Iterable[Frame]:
        """The SSE frames of a successful reply to `request`."""
        body = request.json() if request.body else {}
        return response_frames(reply, body, seq=len(self.requests), created_at=int(time.time()))

    def error_body(self, error: HttpError) -> dict[str, object]:
        """An OpenAI error object."""
        if error.status >= 500:
            default_type = "server_error"
        elif error.status == 429:
            default_type = "requests"
        else:
            default_type = "invalid_request_error"
        return {
            "error": {
                "message": error.message,
                "type": error.error_type or default_type,
                "param": None,
                "code": error.code,
            }
        }


def response_frames(
    reply: Reply, body: Mapping[str, Any], *, seq: int = 1, created_at: int = 0
) -> list[Frame]:
    """Every frame of one streamed response to a request with `body` (pure, for property tests)."""
    return _Stream(reply, body, seq, created_at).frames()


class _Stream:
    def __init__(self, reply: Reply, body: Mapping[str, Any], seq: int, created_at: int) -> None:
        self.reply = reply
        self.body = body
        self.response_id = f"resp_{seq:04d}"
        self.prefix = f"{seq:04d}"
        self.created_at = created_at
        self.output: list[JsonObject] = []
        self._frames: list[Frame] = []

    def frames(self) -> list[Frame]:
        reply = self.reply
        self.emit("response.created", response=self.response("in_progress"))
        self.emit("response.in_progress", response=self.response("in_progress"))
        if reply.reasoning:
            self.reasoning_item()
        if reply.text:
            self.message_item()
        for index, call in enumerate(reply.tool_calls):
            self.call_item(call_id(call, index, "call"), call.name, call.arguments)
        reason = _INCOMPLETE.get(reply.stop_reason or "")
        if reason is None:
            self.emit("response.completed", response=self.response("completed"))
        else:
            self.emit("response.incomplete", response=self.response("incomplete", reason))
        return self._frames

    def emit(self, kind: str, **fields: Any) -> None:
        payload = {"type": kind, **fields, "sequence_number": len(self._frames)}
        self._frames.append(Frame(json.dumps(payload, separators=(",", ":"), ensure_ascii=False), event=kind))

    # -- output items -------------------------------------------------------------------------------

    def reasoning_item(self) -> None:
        index = len(self.output)
        item_id = f"rs_{self.prefix}_{index}"
        text = self.reply.reasoning
        where = {"item_id": item_id, "output_index": index, "summary_index": 0}
        self.emit(
            "response.output_item.added",
            output_index=index,
            item={"id": item_id, "type": "reasoning", "summary": []},
        )
        self.emit("response.reasoning_summary_part.added", **where, part={"type": "summary_text", "text": ""})
        for piece in fragments(text, self.reply.chunk_size):
            self.emit("response.reasoning_summary_text.delta", **where, delta=piece)
        self.emit("response.reasoning_summary_text.done", **where, text=text)
        part = {"type": "summary_text", "text": text}
        self.emit("response.reasoning_summary_part.done", **where, part=part)
        item: JsonObject = {"id": item_id, "type": "reasoning", "summary": [part]}
        if "reasoning.encrypted_content" in (self.body.get("include") or []):
            item["encrypted_content"] = base64.b64encode(f"sealed:{item_id}:{text}".encode()).decode()
        self.done(index, item)

    def message_item(self) -> None:
        index = len(self.output)
        item_id = f"msg_{self.prefix}_{index}"
        text = self.reply.text
        where = {"item_id": item_id, "output_index": index, "content_index": 0}
        item: JsonObject = {
            "id": item_id,
            "type": "message",
            "status": "in_progress",
            "content": [],
            "role": "assistant",
        }
        self.emit("response.output_item.added", output_index=index, item=item)
        empty = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
        self.emit("response.content_part.added", **where, part=empty)
        for piece in fragments(text, self.reply.chunk_size):
            self.emit("response.output_text.delta", **where, delta=piece, logprobs=[])
        self.emit("response.output_text.done", **where, text=text, logprobs=[])
        part = {**empty, "text": text}
        self.emit("response.content_part.done", **where, part=part)
        self.done(index, {**item, "status": "completed", "content": [part]})

    def call_item(self, cid: str, name: str, arguments: str) -> None:
        index = len(self.output)
        item_id = f"fc_{self.prefix}_{index}"
        where = {"item_id": item_id, "output_index": index}
        item: JsonObject = {
            "id": item_id,
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": cid,
            "name": name,
        }
        self.emit("response.output_item.added", output_index=index, item=item)
        for piece in fragments(arguments, self.reply.chunk_size):
            self.emit("response.function_call_arguments.delta", **where, delta=piece)
        self.emit("response.function_call_arguments.done", **where, arguments=arguments)
        self.done(index, {**item, "status": "completed", "arguments": arguments})

    def done(self, index: int, item: JsonObject) -> None:
        self.output.append(item)
        self.emit("response.output_item.done", output_index=index, item=item)

    # -- the response object ------------------------------------------------------------------------

    def response(self, status: str, incomplete: str | None = None) -> JsonObject:
        body = self.body
        reasoning = body.get("reasoning") or {}
        finished = status != "in_progress"
        return {
            "id": self.response_id,
            "object": "response",
            "created_at": self.created_at,
            "status": status,
            "background": False,
            "completed_at": self.created_at if status == "completed" else None,
            "error": None,
            "incomplete_details": {"reason": incomplete} if incomplete else None,
            "instructions": body.get("instructions"),
            "max_output_tokens": body.get("max_output_tokens"),
            "max_tool_calls": None,
            "model": body.get("model", "fake-model"),
            "output": list(self.output) if finished else [],
            "parallel_tool_calls": body.get("parallel_tool_calls", True),
            "previous_response_id": None,
            "prompt_cache_key": body.get("prompt_cache_key"),
            "reasoning": {"effort": reasoning.get("effort"), "summary": reasoning.get("summary")},
            "service_tier": "default",
            "store": body.get("store", True),
            "temperature": body.get("temperature", 1.0),
            "text": {"format": {"type": "text"}, "verbosity": "medium"},
            "tool_choice": body.get("tool_choice", "auto"),
            "tools": body.get("tools", []),
            "top_logprobs": 0,
            "top_p": 1.0,
            "truncation": "disabled",
            "usage": self.usage() if finished else None,
            "user": None,
            "metadata": {},
        }

    def usage(self) -> JsonObject:
        reply = self.reply
        return {
            "input_tokens": reply.input_tokens,
            "input_tokens_details": {"cached_tokens": reply.cached_input_tokens, "cache_write_tokens": 0},
            "output_tokens": reply.output_tokens,
            "output_tokens_details": {"reasoning_tokens": reply.reasoning_tokens},
            "total_tokens": reply.input_tokens + reply.output_tokens,
        }
