"""The turn loop: request, stream, run tools, checkpoint, repeat until the model answers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vtcode.protocol.errors import AgentFailedError
from vtcode.protocol.events import (
    AgentMessageItem,
    ItemCompleted,
    ItemStarted,
    Notice,
    ReasoningItem,
    TurnCompleted,
    TurnStarted,
)
from vtcode.protocol.messages import AssistantMessage, Message, MessageMeta, Usage, UserMessage
from vtcode.protocol.model import (
    Completed,
    ModelRequest,
    ReasoningDelta,
    ReasoningEffort,
    SystemPrompt,
    TextDelta,
    ToolSpec,
)
from vtcode.providers.base import ModelClient
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.tool_dispatch import ToolDispatcher

Checkpoint = Callable[[Sequence[Message], int], None]


@dataclass(frozen=True)
class TurnOutcome:
    """How a turn ended."""

    final_text: str
    usage: Usage
    requests: int


@dataclass
class ConversationState:
    """The history as the model sees it, and counters."""

    messages: list[Message]
    turns: int = 0


class TurnRunner:
    """Runs user turns against one model with one tool set."""

    def __init__(
        self,
        *,
        model_client: ModelClient,
        model: str,
        system: Callable[[], SystemPrompt],
        tools: Sequence[ToolSpec],
        dispatcher: ToolDispatcher,
        emitter: Emitter,
        state: ConversationState,
        checkpoint: Checkpoint,
        clock: Callable[[], float],
        max_requests: int,
        max_output_tokens: int | None = None,
        reasoning_effort: ReasoningEffort | None = None,
        cache_key: str | None = None,
    ) -> None:
        self.client = model_client
        self.model = model
        self.system = system
        self.tools = tuple(tools)
        self.dispatcher = dispatcher
        self.emitter = emitter
        self.state = state
        self.checkpoint = checkpoint
        self.clock = clock
        self.max_requests = max_requests
        self.max_output_tokens = max_output_tokens
        self.reasoning_effort = reasoning_effort
        self.cache_key = cache_key

    def _commit(self, messages: Sequence[Message]) -> None:
        """Append to the in-memory history and checkpoint durably, in that one place."""
        self.state.messages.extend(messages)
        self.checkpoint(messages, self.state.turns)

    async def run(self, text: str, *, intent_id: str | None = None) -> TurnOutcome:
        """Run one user turn to its end (answer without tools, or a limit)."""
        self.state.turns += 1
        self.emitter.emit(TurnStarted())
        meta = MessageMeta(intent_id=intent_id, created_at=self.clock(), turn=self.state.turns)
        self._commit([UserMessage(text, meta=meta)])
        usage = Usage()
        for request_no in range(1, self.max_requests + 1):
            completed = await self._request()
            usage = usage + completed.usage
            message = completed.message
            meta = MessageMeta(created_at=self.clock(), turn=self.state.turns)
            message = AssistantMessage(
                content=message.content,
                reasoning=message.reasoning,
                tool_calls=message.tool_calls,
                meta=meta,
            )
            self._commit([message])
            if not message.tool_calls:
                self.emitter.emit(TurnCompleted(usage=usage))
                return TurnOutcome(message.content, usage, request_no)
            await self.dispatcher.run_calls(message.tool_calls, self._commit)
        raise AgentFailedError(
            f"stopped after {self.max_requests} model requests in one turn without a final answer",
            hint="raise --max-turns, or continue the session with --continue",
        )

    def build_request(self) -> ModelRequest:
        """The request for the current history."""
        return ModelRequest(
            model=self.model,
            system=self.system(),
            messages=tuple(self.state.messages),
            tools=self.tools,
            max_output_tokens=self.max_output_tokens,
            reasoning_effort=self.reasoning_effort,
            cache_key=self.cache_key,
        )

    async def _request(self) -> Completed:
        """Stream one model reply, emitting its items; a cancelled stream leaves no partial message."""
        request = self.build_request()
        text_id: str | None = None
        reasoning_id: str | None = None
        reasoning_text: list[str] = []
        completed: Completed | None = None
        async for event in self.client.stream(request):
            match event:
                case ReasoningDelta(text=fragment):
                    if reasoning_id is None:
                        reasoning_id = self.emitter.new_item_id()
                        self.emitter.emit(ItemStarted(item=ReasoningItem(id=reasoning_id)))
                    reasoning_text.append(fragment)
                    self.emitter.delta(reasoning_id, "reasoning", fragment)
                case TextDelta(text=fragment):
                    if text_id is None:
                        text_id = self.emitter.new_item_id()
                        self.emitter.emit(ItemStarted(item=AgentMessageItem(id=text_id)))
                    self.emitter.delta(text_id, "text", fragment)
                case Completed():
                    completed = event
                case _:
                    pass
        if completed is None:
            # Adapters guarantee a Completed or an exception; this guards a broken adapter.
            raise AgentFailedError("the model stream ended without a reply")
        message = completed.message
        if reasoning_id is not None:
            text = "".join(r.text for r in message.reasoning) or "".join(reasoning_text)
            self.emitter.emit(ItemCompleted(item=ReasoningItem(id=reasoning_id, text=text)))
        if text_id is None and message.content:
            text_id = self.emitter.new_item_id()
            self.emitter.emit(ItemStarted(item=AgentMessageItem(id=text_id)))
        if text_id is not None:
            self.emitter.emit(ItemCompleted(item=AgentMessageItem(id=text_id, text=message.content)))
        if completed.stop_reason in ("max_tokens", "content_filter"):
            why = (
                "reached the output token limit (agent.max_output_tokens)"
                if completed.stop_reason == "max_tokens"
                else "was stopped by the provider's content filter"
            )
            self.emitter.emit(Notice(level="warning", message=f"the model's reply {why}; it may be cut off"))
        return completed
