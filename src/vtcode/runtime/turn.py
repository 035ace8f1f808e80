"""The turn loop: request, stream, run tools, checkpoint, repeat until the model answers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from vtcode.core.context_pressure import ContextPressure
from vtcode.core.repeat_watch import REPEAT_WARNING, RepeatWatch
from vtcode.core.tokens import RequestEstimator, request_byte_tokens
from vtcode.protocol.errors import AgentFailedError, InvalidOutputError, ProviderError, ProviderErrorKind
from vtcode.protocol.events import (
    AgentMessageItem,
    IntentApplied,
    ItemCompleted,
    ItemStarted,
    ReasoningItem,
    TurnStarted,
)
from vtcode.protocol.messages import (
    AssistantMessage,
    ImagePart,
    Message,
    MessageMeta,
    Usage,
    UserMessage,
)
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
from vtcode.runtime import structured_output
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.hooks import (
    AfterToolBatch,
    BeforeRequest,
    ContextOverflow,
    HistoryReplacement,
    TurnHooks,
    TurnStart,
)
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.runtime.user_shell import run_user_command, user_command

if TYPE_CHECKING:
    from vtcode.runtime.lifecycle_hooks import LifecycleHooks


class History(Protocol):
    """Where checkpoints go: appended durably, or replaced as a whole (compaction)."""

    def append(self, messages: Sequence[Message], turn: int) -> None:
        """Append messages; they survive a crash once this returns."""
        ...

    def replace(self, messages: Sequence[Message], summary: str, artifact_path: str | None = None) -> None:
        """Replace the whole history with `messages`; durable once this returns."""
        ...


class TurnOutcome(msgspec.Struct, frozen=True):
    """How a turn ended."""

    final_text: str
    usage: Usage
    requests: int


class ConversationState(msgspec.Struct):
    """The history as the model sees it, and counters."""

    messages: list[Message]
    turns: int = 0
    # What the provider reported for the most recent request (its prompt size is the context pressure).
    last_usage: Usage | None = None
    usage_total: Usage = msgspec.field(default_factory=Usage)


def _hook_message(text: str, turn: int) -> UserMessage:
    """Text a hook adds for the model: not the user's words (compaction and steering skip it)."""
    return UserMessage(text, meta=MessageMeta(kind="context", turn=turn))


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
        history: History,
        clock: Callable[[], float],
        max_requests: int,
        context_window: int,
        max_output_tokens: int | None = None,
        reasoning_effort: ReasoningEffort | None = None,
        cache_key: str | None = None,
        images: bool = False,
        hooks: TurnHooks | None = None,
        estimate: RequestEstimator = request_byte_tokens,
        on_applied: Callable[[Sequence[str]], None] | None = None,
        history_copy: Callable[[AssistantMessage], AssistantMessage] | None = None,
        lifecycle: LifecycleHooks | None = None,
        output_schema: Mapping[str, Any] | None = None,
    ) -> None:
        self.client = model_client
        # What the history keeps of a reply (huge tool-call arguments bounded); tools get the reply whole.
        self.history_copy = history_copy
        self.model = model
        self.system = system
        self.tools = tuple(tools)
        self.dispatcher = dispatcher
        self.emitter = emitter
        self.state = state
        self.history = history
        self.clock = clock
        self.max_requests = max_requests
        # Whether the session is stored, so a stopped turn can be continued (not `--ephemeral`).
        self.stored = True
        self.context_window = context_window
        self.max_output_tokens = max_output_tokens
        self.reasoning_effort = reasoning_effort
        self.cache_key = cache_key
        self.images = images
        self.hooks = hooks or TurnHooks()
        self.estimate = estimate
        # Told the intent ids whose tagged messages were just checkpointed (the envelope follows).
        self.on_applied = on_applied
        # The environment context item, added before the next user message (once).
        self.context: UserMessage | None = None
        # Lifecycle hooks (UserPromptSubmit, Stop); None when no hook is configured.
        self.lifecycle = lifecycle
        # `--output-schema`: every final answer must validate against it (runtime/structured_output).
        self.output_schema = output_schema
        # `/name args` of a skill or custom command, expanded when its turn starts (runtime/skills).
        self.expand_input: Callable[[str], Awaitable[str]] | None = None
        # Tokens of the subagents this turn started (`task`), counted in the turn's usage.
        self.delegated = Usage()

    def add_delegated(self, usage: Usage) -> None:
        """Count a subagent's tokens in this turn's usage and the session's total."""
        self.delegated = self.delegated + usage
        self.state.usage_total = self.state.usage_total + usage

    def commit(self, messages: Sequence[Message]) -> None:
        """Append to the in-memory history and checkpoint durably, in that one place.

        A user message tagged with an intent id is acknowledged (`intent.applied`) only here, after its
        checkpoint returned.
        """
        self.state.messages.extend(messages)
        self.history.append(messages, self.state.turns)
        applied = [m.meta.intent_id for m in messages if isinstance(m, UserMessage) and m.meta.intent_id]
        for intent_id in applied:
            self.emitter.emit(IntentApplied(intent_id=intent_id))
        if applied and self.on_applied is not None:
            self.on_applied(applied)

    def replace_history(
        self, messages: Sequence[Message], summary: str, artifact_path: str | None = None
    ) -> None:
        """Swap the whole history (durably first)."""
        self.history.replace(messages, summary, artifact_path)
        self.state.messages[:] = list(messages)

    def apply(self, replacement: HistoryReplacement) -> None:
        """Checkpoint a hook's replacement history, then tell the hook it is in place."""
        self.replace_history(replacement.messages, replacement.summary, replacement.artifact_path)
        if replacement.applied is not None:
            replacement.applied()

    async def run(
        self, text: str | None, *, intent_id: str | None = None, images: tuple[ImagePart, ...] = ()
    ) -> TurnOutcome:
        """Run one user turn to its end (answer without tools, or a limit).

        `text` None answers the history as it stands: the user message a crashed run left unanswered.
        `images` go on the user message after `text`.
        """
        self.state.turns += 1
        turn = self.state.turns
        self.delegated = Usage()
        self.emitter.begin_turn(turn)
        self.emitter.emit(TurnStarted())
        if text is not None and (command := user_command(text)) is not None:
            return await run_user_command(self, command, turn, intent_id)  # `!cmd`: no model request
        if text is not None and text.lstrip().startswith("/"):
            text = await self._expand(text)
        if text is not None:
            if self.output_schema is not None:
                text = f"{text}\n\n{structured_output.schema_instruction(self.output_schema)}"
            meta = MessageMeta(intent_id=intent_id, created_at=self.clock(), turn=turn)
            hook_context = await self._prompt_hooks(text, turn)
            opening: list[Message] = []
            if self.context is not None:
                opening.append(msgspec.structs.replace(self.context, meta=msgspec.structs.replace(
                    self.context.meta, turn=turn
                )))  # fmt: skip
                self.context = None
            for start_hook in self.hooks.turn_start:
                opening.extend(await start_hook(TurnStart(turn=turn, text=text)))
            self.commit([*opening, UserMessage(text, meta=meta, images=images), *hook_context])
        usage = Usage()
        repeats = RepeatWatch()
        stop_blocks = 0
        reasks = 0
        tools_ran = False
        recovered = False
        for request_no in range(1, self.max_requests + 1):
            try:
                completed = await self._request(turn, request_no)
            except ProviderError as error:
                # One recovery compaction per turn (reference 5.7), then the same request once more.
                if error.kind is not ProviderErrorKind.CONTEXT_OVERFLOW or recovered:
                    raise
                recovered = True
                if not await self._recover(turn, error):
                    raise
                completed = await self._request(turn, request_no)
            usage = usage + completed.usage
            self.state.last_usage = completed.usage
            self.state.usage_total = self.state.usage_total + completed.usage
            message = completed.message
            meta = MessageMeta(created_at=self.clock(), turn=turn)
            message = AssistantMessage(
                content=message.content,
                reasoning=message.reasoning,
                tool_calls=message.tool_calls,
                meta=meta,
            )
            self.commit([message if self.history_copy is None else self.history_copy(message)])
            if not message.tool_calls:
                if not message.content.strip():
                    self.emitter.warn("the model returned an empty answer")
                    if not tools_ran:
                        raise AgentFailedError(
                            "the model returned an empty answer",
                            hint="try again, rephrase the request, or choose another model with --model",
                            kind="empty_answer",
                        )
                problem = self._answer_problem(message.content, reasks)
                if problem is not None:
                    reasks += 1
                    reask = structured_output.reask_text(problem)
                    self.commit([UserMessage(reask, meta=MessageMeta(created_at=self.clock(), turn=turn))])
                    continue
                if self.lifecycle is not None and self.lifecycle.active("Stop"):
                    reason = await self.lifecycle.stop(message.content, stop_blocks)
                    if reason is not None:
                        stop_blocks += 1
                        self.commit([_hook_message(f"A Stop hook asks you to continue: {reason}", turn)])
                        continue
                return TurnOutcome(message.content, usage + self.delegated, request_no)
            tools_ran = True
            match repeats.see(message.tool_calls):
                case "run":
                    results = await self.dispatcher.run_calls(message.tool_calls, self.commit)
                case "warn":
                    results = self.dispatcher.refuse(message.tool_calls, REPEAT_WARNING, self.commit)
                case "stop":
                    # Every call still gets its result, so the stored history stays valid to resume.
                    stopped = f"the turn was stopped after {repeats.count} identical calls in a row"
                    self.dispatcher.refuse(message.tool_calls, stopped, self.commit)
                    raise AgentFailedError(
                        f"the model made the same tool call {repeats.count} times in a row",
                        hint="the task may need another approach: rephrase it, or tell the agent more",
                        kind="loop_guard",
                    )
            for hook in self.hooks.after_tool_batch:
                added = await hook(AfterToolBatch(turn=turn, results=results))
                if added:
                    self.commit(added)
        raise AgentFailedError(
            f"stopped after {self.max_requests} model requests in one turn without a final answer",
            hint="raise --max-turns, or continue the session with --continue"
            if self.stored
            else "raise --max-turns (an --ephemeral session is not stored, so it cannot be continued)",
            kind="max_turns",
        )

    async def _expand(self, text: str) -> str:
        """`/init` and the like become vtcode's prompt; any other `/name args` is the skills' to expand."""
        # Imported at the first input that starts with `/`: most sessions never type one.
        from vtcode.core.prompt_commands import expand_prompt_command

        builtin = expand_prompt_command(text)
        if builtin is not None:
            return builtin
        return await self.expand_input(text) if self.expand_input is not None else text

    async def _prompt_hooks(self, text: str, turn: int) -> list[Message]:
        """UserPromptSubmit: the context messages to store after the prompt; a block fails the turn."""
        if self.lifecycle is None or not self.lifecycle.active("UserPromptSubmit"):
            return []
        verdict = await self.lifecycle.prompt_submitted(text)
        if verdict.blocked:
            raise AgentFailedError(
                f"the prompt was blocked by a UserPromptSubmit hook: {verdict.reason}",
                hint="the prompt was not sent or stored; change it, or the hook",
            )
        return [_hook_message(verdict.context, turn)] if verdict.context else []

    def _answer_problem(self, text: str, reasks: int) -> str | None:
        """What is wrong with a final answer (None: it is the turn's answer); raises after the re-asks."""
        if self.output_schema is None:
            return None
        problem = structured_output.answer_problem(text, self.output_schema)
        if problem is not None and reasks >= structured_output.REASKS:
            raise InvalidOutputError(
                f"the final answer does not match the output schema after {reasks} re-asks: {problem}",
                hint="the raw answer is the last agent message; loosen the schema or try another model",
            )
        return problem

    async def _recover(self, turn: int, error: ProviderError) -> bool:
        """Ask the overflow hooks for a smaller history; whether one was checkpointed."""
        for hook in self.hooks.context_overflow:
            replacement = await hook(
                ContextOverflow(turn=turn, messages=tuple(self.state.messages), error=error)
            )
            if replacement is not None:
                self.apply(replacement)
                return True
        return False

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
            images=self.images,
        )

    def pressure(self, request: ModelRequest) -> ContextPressure:
        """The context pressure of `request`."""
        return ContextPressure.before_request(
            context_window=self.context_window,
            estimated_tokens=self.estimate(request),
            last_usage=self.state.last_usage,
        )

    async def _prepared_request(self, turn: int, request_no: int) -> ModelRequest:
        request = self.build_request()
        if not self.hooks.before_request:
            return request
        # The estimate encodes the whole request: once per version of it, not once per hook.
        pressure = self.pressure(request)
        for hook in self.hooks.before_request:
            view = BeforeRequest(
                turn=turn,
                request_no=request_no,
                messages=request.messages,
                pressure=pressure,
                request=request,
            )
            replacement = await hook(view)
            if replacement is not None:
                self.apply(replacement)
            elif request.tools is self.tools:
                continue
            # A new history, or a hook changed the tool list (MCP tools joining at this boundary):
            # later hooks (compaction) and the request itself see the new one.
            request = self.build_request()
            pressure = self.pressure(request)
        return request

    async def _request(self, turn: int, request_no: int) -> Completed:
        """Stream one model reply, emitting its items; a cancelled stream leaves no partial message."""
        request = await self._prepared_request(turn, request_no)
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
            raise AgentFailedError("the model stream ended without a reply", kind="invalid_response")
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
            self.emitter.warn(f"the model's reply {why}; it may be cut off")
        return completed
