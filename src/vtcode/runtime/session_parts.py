"""The parts of one session, and the one constructor that joins them by a turn loop.

The wiring of a session and the subagent wiring of a child both end here, so a parent and a child get
the same limits, request shape, compaction rules, usage accounting and environment context.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from vtcode.config.schema import Settings
from vtcode.core.compaction.envelope import PendingIntent
from vtcode.mcp.servers import ServerPlan
from vtcode.protocol.messages import UserMessage
from vtcode.providers.base import ModelClient
from vtcode.providers.catalog import ModelInfo
from vtcode.runtime.approval_port import ApprovalPort
from vtcode.runtime.bounded_calls import bounded_message
from vtcode.runtime.compaction import Compactor
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.environment import context_message
from vtcode.runtime.hooks import TurnHooks
from vtcode.runtime.plan_state import PlanState
from vtcode.runtime.stored_history import StoredHistory
from vtcode.runtime.system_prompt import SystemPromptBuilder
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.runtime.toolset import Toolset
from vtcode.runtime.turn import ConversationState, TurnRunner
from vtcode.runtime.usage_tracking import UsageTracking

if TYPE_CHECKING:
    from vtcode.runtime.lifecycle_hooks import LifecycleHooks
    from vtcode.runtime.skills import SessionSkills
    from vtcode.runtime.wiring import SessionOptions


class Wiring(msgspec.Struct):
    """The parts of one session."""

    options: SessionOptions
    thread_id: str
    model: str
    provider_name: str
    info: ModelInfo
    client: ModelClient
    history: StoredHistory
    state: ConversationState
    toolset: Toolset
    prompt: SystemPromptBuilder
    dispatcher: ToolDispatcher
    runner: TurnRunner
    approvals: ApprovalPort
    hooks: TurnHooks
    compactor: Compactor
    # Intents found pending when the session was resumed, to run before any new input.
    recovered: tuple[PendingIntent, ...] = ()
    # The last run ended holding them after an interrupt (Stop beat a follow-up typed before it): the
    # reopened session holds them too, until the user's next own input.
    held: bool = False
    # The user message a resumed history ends with unanswered (a crash or a failed request): its turn
    # runs first, from the history as it stands, so it is neither lost nor added twice.
    unanswered: UserMessage | None = None
    # The MCP servers to start (the session starts them on the event loop).
    mcp: ServerPlan = msgspec.field(default_factory=ServerPlan)
    # Lifecycle hooks at the session's boundaries; None when none are configured.
    lifecycle: LifecycleHooks | None = None
    # The agent's plan (`update_plan`), kept in the session store.
    plan: PlanState | None = None
    # The environment context text the session opened with (a subagent opens with it too).
    environment: str = ""
    # The account of the session's model calls (set by `wire`; a subagent's records into its parent's).
    usage: UsageTracking | None = None
    # Skills and custom commands (`/skills`, `/name args`); None when disabled.
    skills: SessionSkills | None = None

    @classmethod
    def assemble(
        cls,
        options: SessionOptions,
        *,
        thread_id: str,
        model: str,
        provider_name: str,
        info: ModelInfo,
        client: ModelClient,
        history: StoredHistory,
        state: ConversationState,
        toolset: Toolset,
        prompt: SystemPromptBuilder,
        dispatcher: ToolDispatcher,
        approvals: ApprovalPort,
        loop: LoopSetup,
        usage: UsageTracking | None,
        environment: str,
    ) -> Wiring:
        """A session's parts joined by its turn loop: the one way a parent or a child session is made.

        The runner asks for `model` with the toolset's tools and the compactor compacts `history` before
        requests and on overflow, through the same hooks.
        """
        settings = loop.settings
        hooks = TurnHooks()
        runner = TurnRunner(
            model_client=loop.client,
            model=model,
            system=prompt.build,
            tools=[t.spec for t in toolset.tools],
            dispatcher=dispatcher,
            emitter=loop.emitter,
            state=state,
            history=history,
            clock=loop.clock,
            max_requests=loop.max_requests,
            context_window=info.context_window,
            max_output_tokens=settings.agent.max_output_tokens
            or settings.model_settings(model).max_output_tokens,
            reasoning_effort=settings.agent.reasoning_effort,
            cache_key=prompt.cache_key,
            images=info.images,
            hooks=hooks,
            history_copy=functools.partial(bounded_message, options.workspace),
            lifecycle=loop.lifecycle,
            output_schema=options.output_schema,
        )
        runner.stored = not history.ephemeral
        compactor = Compactor(
            client=loop.compaction_client or loop.client,
            model=model,
            settings=settings,
            window=info.context_window,
            workspace=options.workspace,
            history=history,
            emitter=loop.emitter,
            clock=loop.clock,
            current_request=runner.build_request,
        )
        compactor.hooks = loop.lifecycle
        hooks.before_request.append(compactor.before_request)
        hooks.context_overflow.append(compactor.on_overflow)
        if usage is not None:
            usage.install(hooks)
        runner.context = context_message(environment, state.messages, loop.clock()) if environment else None
        return cls(
            options=options,
            thread_id=thread_id,
            model=model,
            provider_name=provider_name,
            info=info,
            client=client,
            history=history,
            state=state,
            toolset=toolset,
            prompt=prompt,
            dispatcher=dispatcher,
            runner=runner,
            approvals=approvals,
            hooks=hooks,
            compactor=compactor,
            lifecycle=loop.lifecycle,
            environment=environment,
            usage=usage,
        )


class LoopSetup(msgspec.Struct, frozen=True):
    """How a session's turn loop runs: its settings, clients (tagged for the usage account) and limits."""

    settings: Settings
    emitter: Emitter
    clock: Callable[[], float]
    client: ModelClient
    max_requests: int
    compaction_client: ModelClient | None = None
    lifecycle: LifecycleHooks | None = None
