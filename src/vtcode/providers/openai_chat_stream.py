"""Decode a streamed Chat Completions reply (SSE `data:` chunks ending in `[DONE]`) into stream events.

Compatible servers differ in small ways, all tolerated here: reasoning arrives as `reasoning_content`
(DeepSeek, vLLM, llama.cpp) or `reasoning` (Ollama, OpenRouter); usage may come in the last chunk, in the
finish chunk or in every chunk (the last one seen wins); some servers omit a tool call's `index` or `id`
or answer "stop" although they called tools. `[DONE]` is the only terminal event: every server we target
sends it, and a stream without it may have lost its usage chunk or a tool call's last fragment.
"""

from __future__ import annotations

import msgspec

from vtcode.protocol.errors import ProviderError
from vtcode.protocol.messages import Usage
from vtcode.protocol.model import Completed, StopReason, StreamEvent
from vtcode.providers.errors import classify_status, error_message, invalid_response
from vtcode.providers.openai_usage import CachedTokens, ReasoningTokens, openai_usage
from vtcode.providers.sse import SseEvent
from vtcode.providers.stream_accumulator import CallPart, Part, ReasoningPart, TextPart
from vtcode.providers.wire_decoder import WireDecoder

DONE = "[DONE]"

_STOP_REASONS: dict[str, StopReason] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    # The pre-tools name, still sent by some compatible servers.
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "content_filter",
}


# Wire shapes: unknown fields are ignored (servers add them all the time), every field is optional.


class _Function(msgspec.Struct):
    name: str | None = None
    arguments: str | None = None


class _ToolCallChunk(msgspec.Struct):
    index: int | None = None
    id: str | None = None
    function: _Function | None = None


class _Delta(msgspec.Struct):
    content: str | None = None
    refusal: str | None = None
    reasoning_content: str | None = None
    reasoning: str | None = None
    tool_calls: list[_ToolCallChunk] | None = None


class _Choice(msgspec.Struct):
    index: int = 0
    delta: _Delta | None = None
    finish_reason: str | None = None


class _Usage(msgspec.Struct):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    prompt_tokens_details: CachedTokens | None = None
    completion_tokens_details: ReasoningTokens | None = None
    # DeepSeek reports its prefix-cache hits here instead of prompt_tokens_details.
    prompt_cache_hit_tokens: int | None = None


class _Error(msgspec.Struct):
    message: str | None = None
    type: str | None = None
    code: str | int | None = None


class _Chunk(msgspec.Struct):
    id: str | None = None
    choices: list[_Choice] | None = None
    usage: _Usage | None = None
    error: _Error | None = None


_decoder = msgspec.json.Decoder(_Chunk)


class _Call(msgspec.Struct):
    """One tool call on the wire; arguments that arrive before its name wait in `pending`."""

    id: str | None = None
    # Set once the name arrived and the call was announced.
    part: CallPart | None = None
    pending: list[str] = msgspec.field(default_factory=list)


class ChatStreamDecoder(WireDecoder):
    """Turns the SSE events of one Chat Completions stream into `StreamEvent`s, ending with `Completed`.

    Feed every event to `feed`; after the stream's bytes run out call `close`, which raises when the
    terminal `[DONE]` never came.
    """

    def __init__(self, provider: str, *, api_key_env: str | None = None) -> None:
        super().__init__(provider, api_key_env=api_key_env)
        self._text = TextPart()
        self._reasoning = ReasoningPart()
        self._calls: dict[int, _Call] = {}
        self._last_index: int | None = None
        self._finish: str | None = None
        self._usage = Usage()

    def feed(self, event: SseEvent) -> list[StreamEvent]:
        """The stream events carried by one SSE event."""
        if self.done:
            return []
        data = event.data.strip()
        if event.event == "error":
            raise self._error_from_text(data)
        if not data:
            return []
        if data == DONE:
            return [self._completed()]
        try:
            chunk = _decoder.decode(data)
        except msgspec.DecodeError as exc:
            raise self._undecodable(exc, data) from exc
        if chunk.error is not None:
            raise self._error(chunk.error)
        if chunk.id and self.response_id is None:
            self.response_id = chunk.id
        if chunk.usage is not None:
            usage = chunk.usage
            self._usage = openai_usage(
                usage.prompt_tokens,
                usage.completion_tokens,
                usage.prompt_tokens_details,
                usage.completion_tokens_details,
                usage.prompt_cache_hit_tokens,
            )
        out: list[StreamEvent] = []
        for choice in chunk.choices or ():
            # We never ask for n > 1; other choices would only be a server's mistake.
            if choice.index == 0:
                self._choice(choice, out)
        return out

    # -- chunks ---------------------------------------------------------------------------------

    def _choice(self, choice: _Choice, out: list[StreamEvent]) -> None:
        delta = choice.delta
        if delta is not None:
            # Reasoning is kept apart from the answer. Servers use one name or the other, and some send
            # the same text under both while renaming the field, so one name wins.
            thought = delta.reasoning_content or delta.reasoning
            if thought:
                out.append(self._reasoning.add(thought))
            # A refusal replaces the answer text; the user should see it rather than an empty reply.
            for text in (delta.content, delta.refusal):
                if text:
                    out.append(self._text.add(text))
            for call in delta.tool_calls or ():
                self._tool_call(call, out)
        if choice.finish_reason:
            self._finish = choice.finish_reason

    def _tool_call(self, chunk: _ToolCallChunk, out: list[StreamEvent]) -> None:
        index = self._call_index(chunk)
        call = self._calls.get(index)
        if call is None:
            call = self._calls[index] = _Call()
        self._last_index = index
        function = chunk.function or _Function()
        if call.id is None and chunk.id:
            call.id = chunk.id
        if call.part is None and function.name:
            call.id = call.id or f"call_{self.response_id or 'chat'}_{index}"
            call.part = CallPart(index, call.id, function.name)
            out.append(call.part.started())
            if call.pending:
                # Arguments that came before the name: deliver them as one fragment, in order.
                out.append(call.part.add("".join(call.pending)))
                call.pending.clear()
        if function.arguments:
            if call.part is not None:
                out.append(call.part.add(function.arguments))
            else:
                call.pending.append(function.arguments)

    def _call_index(self, chunk: _ToolCallChunk) -> int:
        if chunk.index is not None:
            return chunk.index
        # Some servers (early Gemini compatibility) leave out `index`: a new id starts a new call,
        # anything else continues the latest one.
        known = {call.id for call in self._calls.values()}
        if self._last_index is None or (chunk.id and chunk.id not in known):
            return len(self._calls)
        return self._last_index

    # -- the end --------------------------------------------------------------------------------

    def _completed(self) -> Completed:
        parts: list[Part] = [self._text, self._reasoning]
        for index in sorted(self._calls):
            part = self._calls[index].part
            if part is None:
                raise invalid_response(self.provider, f"tool call {index} has no function name")
            parts.append(part)
        return self._complete(parts, self._usage, self._stop_reason(bool(self._calls)))

    def _stop_reason(self, has_calls: bool) -> StopReason | None:
        if self._finish is None:
            return None
        reason = _STOP_REASONS.get(self._finish, "other")
        # Gemini's and Ollama's compatibility layers answer "stop" even when the reply is tool calls.
        if reason == "end_turn" and has_calls:
            return "tool_use"
        return reason

    def _error(self, error: _Error) -> ProviderError:
        message = error.message or "error in stream"
        if error.type:
            kind = error.type
        elif isinstance(error.code, str):
            kind = error.code
        elif isinstance(error.code, int) and 400 <= error.code <= 599:
            # OpenRouter puts the upstream HTTP status in `code` and sends no type.
            body = msgspec.json.encode({"error": {"message": message}}).decode()
            return classify_status(error.code, body, provider=self.provider, api_key_env=self.api_key_env)
        else:
            kind = ""
        return self._stream_error(kind, message)

    def _error_from_text(self, data: str) -> ProviderError:
        try:
            chunk = _decoder.decode(data)
        except msgspec.DecodeError:
            chunk = _Chunk()
        if chunk.error is not None:
            return self._error(chunk.error)
        return self._stream_error("", error_message(data))
