"""Decode an OpenAI Responses event stream into StreamEvents and one assembled Completed.

The stream is a sequence of typed JSON events (`response.created`, `response.output_item.added`, deltas,
`response.output_item.done`, ..., `response.completed`). Output items carry an `output_index`; reasoning,
message and function_call items may follow each other in any order, and function calls get a dense call
index in the order they start, which is what the runtime sees.
"""

from __future__ import annotations

import msgspec

from vtcode.protocol.errors import ProviderError
from vtcode.protocol.messages import Usage
from vtcode.protocol.model import Completed, ReasoningDelta, StopReason, StreamEvent
from vtcode.providers.errors import invalid_response
from vtcode.providers.openai_usage import CachedTokens, ReasoningTokens, openai_usage
from vtcode.providers.sse import SseEvent
from vtcode.providers.stream_accumulator import CallPart, Part, ReasoningPart, TextPart
from vtcode.providers.wire_decoder import WireDecoder

# Separates consecutive reasoning summary parts (and message items) in the streamed text.
PART_SEPARATOR = "\n\n"


# -- wire shapes: only the fields we read; unknown fields are ignored on purpose ------------------------


class _Part(msgspec.Struct):
    type: str = ""
    text: str = ""
    refusal: str = ""


class _Item(msgspec.Struct):
    type: str = ""
    id: str | None = None
    call_id: str | None = None
    name: str | None = None
    arguments: str | None = None
    summary: list[_Part] | None = None
    content: list[_Part] | None = None
    encrypted_content: str | None = None


class _Usage(msgspec.Struct):
    input_tokens: int | None = None
    output_tokens: int | None = None
    input_tokens_details: CachedTokens | None = None
    output_tokens_details: ReasoningTokens | None = None


class _Error(msgspec.Struct):
    code: str | None = None
    type: str | None = None
    message: str | None = None


class _Incomplete(msgspec.Struct):
    reason: str | None = None


class _Response(msgspec.Struct):
    id: str | None = None
    usage: _Usage | None = None
    error: _Error | None = None
    incomplete_details: _Incomplete | None = None


class _Head(msgspec.Struct):
    type: str = ""


class _Event(msgspec.Struct):
    type: str = ""
    output_index: int | None = None
    item_id: str | None = None
    summary_index: int | None = None
    content_index: int | None = None
    delta: str | None = None
    arguments: str | None = None
    # Decoded only for the item types we read: other items (web search, MCP...) may hold any shape.
    item: msgspec.Raw = msgspec.Raw()
    response: _Response | None = None
    # `error` events carry these at the top level; some gateways nest them in `error` instead.
    code: str | None = None
    message: str | None = None
    error: _Error | None = None


_HEAD = msgspec.json.Decoder(_Head)
_EVENT = msgspec.json.Decoder(_Event)
_ITEM = msgspec.json.Decoder(_Item)
_ITEM_TYPES = frozenset({"message", "reasoning", "function_call"})
# Events we read; the rest (lifecycle, parts, `.done` repeats, tools we do not offer) only need to be JSON.
_HANDLED = frozenset(
    {
        "response.created",
        "response.in_progress",
        "response.queued",
        "response.completed",
        "response.incomplete",
        "response.failed",
        "error",
        "response.output_item.added",
        "response.output_item.done",
        "response.output_text.delta",
        "response.refusal.delta",
        "response.reasoning_summary_text.delta",
        "response.reasoning_text.delta",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
    }
)

# Responses error codes -> the error types `stream_error` classifies.
_ERROR_TYPES = {
    "context_length_exceeded": "invalid_request_error",
    "rate_limit_exceeded": "rate_limit_error",
    "insufficient_quota": "insufficient_quota",
    "invalid_api_key": "authentication_error",
    "server_error": "server_error",
    "invalid_prompt": "invalid_request_error",
}

_UNINDEXED = 1 << 40

_INCOMPLETE_REASONS: dict[str | None, StopReason] = {
    "max_output_tokens": "max_tokens",
    "content_filter": "content_filter",
}


# -- per-item state -------------------------------------------------------------------------------------


class _ReasoningItem(ReasoningPart):
    # The summary or content part the last text belonged to: a new one starts a new paragraph.
    part_key: tuple[str, int] | None = None


class _CallItem(CallPart):
    # The final arguments arrived: the call can run even when the response was cut short.
    done: bool = False


_State = TextPart | _ReasoningItem | _CallItem


class ResponsesStreamDecoder(WireDecoder):
    """Feed SSE events of one response; get stream events out, ending with exactly one Completed."""

    def __init__(self, provider: str, *, api_key_env: str | None = None) -> None:
        super().__init__(provider, api_key_env=api_key_env)
        self._items: dict[int, _State] = {}
        self._by_item_id: dict[str, int] = {}
        self._calls: list[_CallItem] = []
        self._text_streamed = False
        self._reasoning_streamed = False

    def feed(self, sse: SseEvent) -> list[StreamEvent]:
        """Decode one SSE event; raises ProviderError for undecodable data or an error in the stream."""
        if self.done or sse.data.strip() in ("", "[DONE]"):
            return []
        try:
            if _HEAD.decode(sse.data).type not in _HANDLED:
                return []
            event = _EVENT.decode(sse.data)
            item = _item(event.item)
        except msgspec.DecodeError as exc:
            raise self._undecodable(exc, sse.data) from exc
        return self._handle(event, item)

    # -- dispatch ---------------------------------------------------------------------------------------

    def _handle(self, event: _Event, item: _Item | None) -> list[StreamEvent]:
        kind = event.type
        # Deltas are nearly every event of a stream: tested first.
        if kind in ("response.output_text.delta", "response.refusal.delta"):
            return self._text_delta(event)
        if kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            return self._reasoning_delta(event)
        if kind == "response.function_call_arguments.delta":
            return self._arguments_delta(event)
        if kind in ("response.created", "response.in_progress", "response.queued"):
            if event.response is not None and event.response.id:
                self.response_id = event.response.id
            return []
        if kind == "response.output_item.added" and item is not None:
            return self._item_added(event.output_index, item)
        if kind == "response.output_item.done" and item is not None:
            return self._item_done(event.output_index, item)
        if kind == "response.function_call_arguments.done" and event.arguments is not None:
            return self._call(event).settle(event.arguments)
        if kind == "response.completed":
            return [self._end(event.response, None)]
        if kind == "response.incomplete":
            details = event.response.incomplete_details if event.response else None
            reason = _INCOMPLETE_REASONS.get(details.reason if details else None, "other")
            return [self._end(event.response, reason)]
        if kind == "response.failed":
            error = event.response.error if event.response else None
            raise self._error(error or _Error(message="the response failed"))
        if kind == "error":
            raise self._error(event.error or _Error(code=event.code, message=event.message))
        return []

    # -- output items -----------------------------------------------------------------------------------

    def _item_added(self, output_index: int | None, item: _Item) -> list[StreamEvent]:
        key = self._key(output_index, item.id)
        if key in self._items:
            return []
        if item.type == "function_call":
            call = _CallItem(
                index=len(self._calls),
                call_id=item.call_id or item.id or f"call_{len(self._calls)}",
                name=item.name or "",
                item_id=item.id,
            )
            self._calls.append(call)
            self._remember(key, item.id, call)
            events: list[StreamEvent] = [call.started()]
            if item.arguments:
                events += call.settle(item.arguments)
            return events
        if item.type == "reasoning":
            self._remember(key, item.id, _ReasoningItem(item_id=item.id))
        elif item.type == "message":
            self._remember(key, item.id, TextPart())
        return []

    def _item_done(self, output_index: int | None, item: _Item) -> list[StreamEvent]:
        events = self._item_added(output_index, item)
        state = self._items.get(self._key(output_index, item.id))
        if isinstance(state, _CallItem):
            events += state.settle(item.arguments or "")
            state.done = True
        elif isinstance(state, _ReasoningItem):
            state.item_id = item.id or state.item_id
            state.encrypted_content = item.encrypted_content
            # Some servers send reasoning only in the finished item, without deltas.
            if not state.fragments:
                for index, part in enumerate(item.summary or item.content or []):
                    events += self._reasoning_text(state, ("done", index), part.text)
        elif isinstance(state, TextPart) and not state.fragments:
            text = "".join(part.text or part.refusal for part in item.content or [])
            events += self._text(state, text)
        return events

    def _key(self, output_index: int | None, item_id: str | None) -> int:
        if output_index is not None:
            return output_index
        if item_id is not None and item_id in self._by_item_id:
            return self._by_item_id[item_id]
        # Neither given: a fresh slot after every real index, in arrival order.
        return _UNINDEXED + len(self._items)

    def _remember(self, key: int, item_id: str | None, state: _State) -> None:
        self._items[key] = state
        if item_id is not None:
            self._by_item_id[item_id] = key

    def _lookup(self, event: _Event) -> _State | None:
        if event.item_id is not None and event.item_id in self._by_item_id:
            return self._items[self._by_item_id[event.item_id]]
        if event.output_index is not None:
            return self._items.get(event.output_index)
        return None

    # -- text and reasoning -----------------------------------------------------------------------------

    def _text_delta(self, event: _Event) -> list[StreamEvent]:
        state = self._lookup(event)
        if not isinstance(state, TextPart):
            state = TextPart()
            self._remember(self._key(event.output_index, event.item_id), event.item_id, state)
        return self._text(state, event.delta or "")

    def _text(self, state: TextPart, text: str) -> list[StreamEvent]:
        if not text:
            return []
        events: list[StreamEvent] = []
        if not state.fragments and self._text_streamed:
            events.append(state.add(PART_SEPARATOR))
        self._text_streamed = True
        events.append(state.add(text))
        return events

    def _reasoning_delta(self, event: _Event) -> list[StreamEvent]:
        state = self._lookup(event)
        if not isinstance(state, _ReasoningItem):
            state = _ReasoningItem(item_id=event.item_id)
            self._remember(self._key(event.output_index, event.item_id), event.item_id, state)
        if event.summary_index is not None:
            part = ("summary", event.summary_index)
        else:
            part = ("content", event.content_index or 0)
        return self._reasoning_text(state, part, event.delta or "")

    def _reasoning_text(self, state: _ReasoningItem, part: tuple[str, int], text: str) -> list[StreamEvent]:
        if not text:
            return []
        events: list[StreamEvent] = []
        if state.part_key != part and self._reasoning_streamed:
            # A new summary part or a new reasoning item: keep paragraphs apart on screen (and in the
            # item's text only between its own parts).
            events.append(state.add(PART_SEPARATOR) if state.fragments else ReasoningDelta(PART_SEPARATOR))
        state.part_key = part
        self._reasoning_streamed = True
        events.append(state.add(text))
        return events

    # -- function calls ---------------------------------------------------------------------------------

    def _call(self, event: _Event) -> _CallItem:
        state = self._lookup(event)
        if not isinstance(state, _CallItem):
            raise invalid_response(self.provider, "function call arguments before the call started")
        return state

    def _arguments_delta(self, event: _Event) -> list[StreamEvent]:
        call = self._call(event)
        if not event.delta or call.done:
            return []
        return [call.add(event.delta)]

    # -- end of stream ----------------------------------------------------------------------------------

    def _end(self, response: _Response | None, stop: StopReason | None) -> Completed:
        if response is not None and response.id:
            self.response_id = response.id
        # Calls are listed in the order they started, whatever their output index.
        parts: list[Part] = [
            state for key in sorted(self._items) if not isinstance(state := self._items[key], CallPart)
        ]
        # A truncated response may hold a call whose arguments never finished; it cannot be run.
        calls = [c for c in self._calls if c.done or stop is None]
        return self._complete([*parts, *calls], _usage(response), stop)

    def _error(self, error: _Error) -> ProviderError:
        message = error.message or "error in stream"
        code = error.code or ""
        error_type = _ERROR_TYPES.get(code) or error.type or code or "server_error"
        # The code is the reliable signal (the wording varies); keep it in the text the classifier reads.
        if code and code not in message:
            message = f"{message} [{code}]"
        return self._stream_error(error_type, message)


def _item(raw: msgspec.Raw) -> _Item | None:
    if bytes(raw) in (b"", b"null") or _HEAD.decode(raw).type not in _ITEM_TYPES:
        return None
    return _ITEM.decode(raw)


def reported_usage(data: bytes) -> Usage | None:
    """The `usage` of a JSON response object (the compaction endpoint's reply); None when it has none."""
    try:
        response = msgspec.json.decode(data, type=_Response)
    except msgspec.DecodeError:
        return None
    return _usage(response) if response.usage is not None else None


def _usage(response: _Response | None) -> Usage:
    usage = response.usage if response is not None else None
    if usage is None:
        return Usage()
    return openai_usage(
        usage.input_tokens, usage.output_tokens, usage.input_tokens_details, usage.output_tokens_details
    )
