"""An in-process ModelClient that plays a script, for unit tests of the runtime."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from vtcode.protocol.errors import ProviderError
from vtcode.protocol.messages import AssistantMessage, Reasoning, ToolCall, Usage
from vtcode.protocol.model import (
    Completed,
    ModelRequest,
    ReasoningDelta,
    StopReason,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolCallStarted,
)
from vtcode.providers.errors import classify_status, invalid_response
from vtcode.testing.script import HttpError, JsonReply, RawResponse, Reply, Step, call_id, fragments


class ScriptedModel:
    """Plays `Reply` steps as stream events and raises classified errors for `HttpError` steps."""

    def __init__(self, script: Sequence[Step] = (), *, provider: str = "scripted") -> None:
        self._script = list(script)
        self._provider = provider
        self.requests: list[ModelRequest] = []

    @property
    def provider(self) -> str:
        """Provider name."""
        return self._provider

    def add(self, *steps: Step) -> None:
        """Append steps."""
        self._script.extend(steps)

    async def aclose(self) -> None:
        """Nothing to release."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Play the next step."""
        self.requests.append(request)
        if not self._script:
            raise classify_status(
                500, "scripted model: script exhausted", provider=self._provider, api_key_env=None
            )
        step = self._script.pop(0)
        if isinstance(step, HttpError):
            raise classify_status(step.status, step.message, provider=self._provider, api_key_env=None)
        if isinstance(step, RawResponse):
            raise invalid_response(self._provider, f"not a stream ({step.content_type})")
        if isinstance(step, JsonReply):
            raise classify_status(
                500, "scripted model: a JSON reply is not a stream", provider=self._provider, api_key_env=None
            )
        for event in reply_events(step):
            yield event


def reply_events(reply: Reply) -> list[StreamEvent]:
    """The stream events a reply produces, ending with `Completed`."""
    events: list[StreamEvent] = [ReasoningDelta(p) for p in fragments(reply.reasoning, reply.chunk_size)]
    events += [TextDelta(p) for p in fragments(reply.text, reply.chunk_size)]
    calls: list[ToolCall] = []
    for index, call in enumerate(reply.tool_calls):
        cid = call_id(call, index, "call")
        events.append(ToolCallStarted(index, cid, call.name))
        events += [ToolCallDelta(index, p) for p in fragments(call.arguments, reply.chunk_size)]
        calls.append(ToolCall(id=cid, name=call.name, arguments=call.arguments))
    message = AssistantMessage(
        content=reply.text,
        reasoning=(Reasoning(text=reply.reasoning),) if reply.reasoning else (),
        tool_calls=tuple(calls),
    )
    usage = Usage(
        input_tokens=reply.input_tokens,
        output_tokens=reply.output_tokens,
        cached_input_tokens=reply.cached_input_tokens,
        reasoning_tokens=reply.reasoning_tokens,
    )
    stop: StopReason = "tool_use" if calls else "end_turn"
    if reply.stop_reason in ("end_turn", "tool_use", "max_tokens", "content_filter", "other"):
        stop = reply.stop_reason  # type: ignore[assignment]
    events.append(Completed(message, usage, stop))
    return events


__all__ = ["ProviderError", "ScriptedModel", "reply_events"]
