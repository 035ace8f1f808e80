"""Decode the Anthropic Messages SSE stream into stream events and one assembled reply."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from vtcode.protocol.errors import ProviderError
from vtcode.protocol.messages import Usage
from vtcode.protocol.model import StopReason, StreamEvent
from vtcode.providers.errors import invalid_response
from vtcode.providers.sse import SseEvent
from vtcode.providers.stream_accumulator import CallPart, Part, ReasoningPart, TextPart
from vtcode.providers.wire_decoder import WireDecoder

# Wire shapes. Only the fields we read are declared; unknown fields are ignored because the API adds
# fields (citations, containers, service tiers) all the time.


class _Head(msgspec.Struct):
    type: str


class _OutputDetails(msgspec.Struct):
    thinking_tokens: int | None = None


class _Usage(msgspec.Struct):
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_input_tokens: int | None = None
    cache_creation_input_tokens: int | None = None
    output_tokens_details: _OutputDetails | None = None


class _Message(msgspec.Struct):
    id: str | None = None
    usage: _Usage | None = None


class _MessageStart(msgspec.Struct):
    message: _Message


class _Content(msgspec.Struct):
    """What a content block's start and its deltas both carry."""

    type: str
    text: str | None = None
    # A compaction block's summary (null when the provider's compaction failed).
    content: str | None = None
    thinking: str | None = None
    signature: str | None = None


class _Block(_Content):
    data: str | None = None
    id: str | None = None
    name: str | None = None
    input: msgspec.Raw = msgspec.Raw()


class _BlockStart(msgspec.Struct):
    index: int
    content_block: _Block


class _Delta(_Content):
    partial_json: str | None = None


class _BlockDelta(msgspec.Struct):
    index: int
    delta: _Delta


class _BlockStop(msgspec.Struct):
    index: int


class _MessageDeltaBody(msgspec.Struct):
    stop_reason: str | None = None


class _MessageDelta(msgspec.Struct):
    delta: _MessageDeltaBody
    usage: _Usage | None = None


class _ErrorBody(msgspec.Struct):
    type: str = "api_error"
    message: str = ""


class _Error(msgspec.Struct):
    error: _ErrorBody


_HEAD = msgspec.json.Decoder(_Head)
_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {
    "message_start": msgspec.json.Decoder(_MessageStart),
    "content_block_start": msgspec.json.Decoder(_BlockStart),
    "content_block_delta": msgspec.json.Decoder(_BlockDelta),
    "content_block_stop": msgspec.json.Decoder(_BlockStop),
    "message_delta": msgspec.json.Decoder(_MessageDelta),
    "error": msgspec.json.Decoder(_Error),
}

_STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "stop_sequence": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    # The reply was cut because the context window filled up: the same situation as max_tokens for a
    # caller that wants to continue or compact.
    "model_context_window_exceeded": "max_tokens",
    "refusal": "content_filter",
}


@dataclass(slots=True)
class _Open:
    """A content block being assembled: its part of the reply, if it has one."""

    kind: str
    part: Part | None = None
    # A compaction block's summary, which is not part of the reply.
    summary: list[str] = field(default_factory=list)


class AnthropicStreamDecoder(WireDecoder):
    """Feed SSE events in order; get stream events out, ending with exactly one `Completed`."""

    def __init__(self, provider: str, *, api_key_env: str | None = None) -> None:
        super().__init__(provider, api_key_env=api_key_env)
        self._blocks: dict[int, _Open] = {}
        self._order: list[int] = []
        self._calls = 0
        self._usage = _Usage()
        self._stop: str | None = None

    @property
    def stop_reason(self) -> str | None:
        """The provider's own stop reason, unmapped (None until `message_delta` says)."""
        return self._stop

    @property
    def first_block(self) -> str | None:
        """The type of the reply's first content block, once it started."""
        return self._blocks[self._order[0]].kind if self._order else None

    @property
    def compaction(self) -> str | None:
        """The text of the reply's compaction block (the compaction edit fired); None without one."""
        parts = [
            "".join(self._blocks[i].summary) for i in self._order if self._blocks[i].kind == "compaction"
        ]
        return "".join(parts) if parts else None

    def feed(self, sse: SseEvent) -> list[StreamEvent]:
        """Decode one SSE event; raises ProviderError for in-stream errors and undecodable data."""
        if self.done or sse.event == "ping" or not sse.data.strip():
            return []
        raw = sse.data.encode()
        try:
            kind = _HEAD.decode(raw).type
            decoder = _DECODERS.get(kind)
            if decoder is None:
                return self._finish() if kind == "message_stop" else []
            return self._dispatch(decoder.decode(raw))
        except msgspec.DecodeError as exc:
            raise self._undecodable(exc, sse.data) from exc

    def _dispatch(self, event: msgspec.Struct) -> list[StreamEvent]:
        match event:
            # Deltas are nearly every event of a stream: matched first.
            case _BlockDelta():
                return self._delta(self._block(event.index), event.delta)
            case _MessageStart(message=message):
                self.response_id = message.id
                self._merge_usage(message.usage)
                return []
            case _BlockStart():
                return self._start(event.index, event.content_block)
            case _BlockStop():
                return self._stop_block(self._block(event.index))
            case _MessageDelta():
                self._stop = event.delta.stop_reason or self._stop
                self._merge_usage(event.usage)
                return []
            case _Error(error=error):
                raise self._error(error)
        return []

    def _start(self, index: int, block: _Block) -> list[StreamEvent]:
        opened = _Open(kind=block.type)
        if index not in self._blocks:
            self._order.append(index)
        self._blocks[index] = opened
        if block.type == "text":
            opened.part = TextPart()
            return self._delta(opened, _Delta("text_delta", text=block.text))
        if block.type == "thinking":
            opened.part = ReasoningPart(signature=block.signature or None, keep_empty=True)
            return self._delta(opened, _Delta("thinking_delta", thinking=block.thinking))
        if block.type == "compaction":
            # The summary may come whole in the start block or in `compaction_delta`s.
            opened.summary += [block.content] if block.content else []
        elif block.type == "redacted_thinking":
            opened.part = ReasoningPart(redacted=block.data)
        elif block.type == "tool_use":
            # Some gateways send the whole input in the start block and no deltas; `{}` is the usual
            # placeholder that the deltas replace.
            start_input = bytes(block.input).decode()
            # A stream may end a tool block without content_block_stop; arguments are still an object.
            fallback = "{}" if start_input.strip() in ("", "{}", "null") else start_input
            call = CallPart(self._calls, block.id or "", block.name or "", fallback=fallback)
            self._calls += 1
            opened.part = call
            return [call.started()]
        return []

    def _delta(self, block: _Open, delta: _Delta) -> list[StreamEvent]:
        part = block.part
        if delta.type == "text_delta" and delta.text and isinstance(part, TextPart):
            return [part.add(delta.text)]
        if block.kind == "thinking" and isinstance(part, ReasoningPart):
            if delta.type == "thinking_delta" and delta.thinking:
                return [part.add(delta.thinking)]
            # Only a thinking block's signature is sent back; other blocks ignore one.
            if delta.type == "signature_delta" and delta.signature:
                part.signature = delta.signature
        elif delta.type == "compaction_delta" and delta.content and block.kind == "compaction":
            block.summary.append(delta.content)
        elif delta.type == "input_json_delta" and delta.partial_json and isinstance(part, CallPart):
            return [part.add(delta.partial_json)]
        return []

    def _stop_block(self, block: _Open) -> list[StreamEvent]:
        # A call's arguments are final at its block's end. One that streamed no fragment (or only empty
        # ones) still has an object, and the fragments a consumer saw must add up to the final arguments.
        return block.part.settle(block.part.arguments) if isinstance(block.part, CallPart) else []

    def _finish(self) -> list[StreamEvent]:
        parts = (part for index in self._order if (part := self._blocks[index].part) is not None)
        stop = None if self._stop is None else _STOP_REASONS.get(self._stop, "other")
        return [self._complete(parts, self._final_usage(), stop)]

    def _merge_usage(self, usage: _Usage | None) -> None:
        # message_delta counts are cumulative totals: a present field replaces, an absent one keeps the
        # message_start value.
        if usage is None:
            return
        current = self._usage
        self._usage = _Usage(
            input_tokens=_pick(usage.input_tokens, current.input_tokens),
            output_tokens=_pick(usage.output_tokens, current.output_tokens),
            cache_read_input_tokens=_pick(usage.cache_read_input_tokens, current.cache_read_input_tokens),
            cache_creation_input_tokens=_pick(
                usage.cache_creation_input_tokens, current.cache_creation_input_tokens
            ),
            output_tokens_details=usage.output_tokens_details or current.output_tokens_details,
        )

    def _final_usage(self) -> Usage:
        wire = self._usage
        cached = wire.cache_read_input_tokens or 0
        created = wire.cache_creation_input_tokens or 0
        details = wire.output_tokens_details
        return Usage(
            # Anthropic's input_tokens counts only the uncached tail; ours is the whole prompt, as in the
            # OpenAI formats, so context-size decisions read the same number from every provider.
            input_tokens=(wire.input_tokens or 0) + cached + created,
            output_tokens=wire.output_tokens or 0,
            cached_input_tokens=cached,
            cache_creation_input_tokens=created,
            reasoning_tokens=(details.thinking_tokens or 0) if details else 0,
        )

    def _block(self, index: int) -> _Open:
        block = self._blocks.get(index)
        if block is None:
            raise invalid_response(self.provider, f"event for content block {index} before its start")
        return block

    def _error(self, error: _ErrorBody) -> ProviderError:
        return self._stream_error(error.type, error.message or error.type)


def _pick(new: int | None, old: int | None) -> int | None:
    return old if new is None else new
