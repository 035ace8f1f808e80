"""A subagent's session parts, made from its parent's: the same workspace, settings, model client,
approval port, deny rules, sandbox and hooks; its own history, prompt, tools and command sessions.

Nothing here reads configuration again or probes a provider: a child costs a prompt build, a tool list
and a few objects (bench/subagent_bench.py measures it against a parent's start).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from vtcode.core.agents.builtins import TASK_TOOL
from vtcode.core.agents.definitions import AgentDefinition, child_tools, stricter
from vtcode.core.usage_ledger import subagent_source
from vtcode.exec.manager import SessionManager
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.providers import model_info
from vtcode.runtime.session_parts import LoopSetup, Wiring
from vtcode.runtime.stored_history import StoredHistory
from vtcode.runtime.subagent_history import ChildHistory
from vtcode.runtime.system_prompt import SystemPromptBuilder
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.runtime.toolset import Toolset, command_environment
from vtcode.runtime.turn import ConversationState
from vtcode.runtime.usage_tracking import UsageTracking
from vtcode.runtime.wiring import SessionOptions
from vtcode.store.session import SessionStore
from vtcode.tools.base import CallDescription, Tool, ToolContext, ToolOutcome
from vtcode.tools.registry import builtin_tools

if TYPE_CHECKING:
    from vtcode.runtime.subagent_resume import PastChild
    from vtcode.runtime.tool_hooks import ToolHooks

DEPTH_REFUSAL = (
    "refused: a subagent cannot start subagents (the depth limit is 1). Do the work yourself with "
    "your own tools, or answer with what the parent agent should delegate next"
)
_COMMAND_TOOLS = frozenset({"exec_command", "write_stdin"})
# The shape of a child's final answer (VT Code's handoff): the parent reads the same headings every time.
HANDOFF = (
    "## Summary\nWhat you did, and the answer to the brief.\n"
    "## Facts\nWhat you found, with file paths and line numbers.\n"
    "## Touched Files\nThe files you changed (or: none).\n"
    "## Verification\nWhat you checked and how; what you could not check.\n"
    "## Open Questions\nWhat is left to do or unclear (or: none)."
)


class ChildEmitter(Emitter):
    """A child's event stream: its item ids carry the agent id, so its approval request ids (made from
    item ids) never meet its parent's or a sibling's on the parent's approval port."""

    def __init__(self, agent_id: str, *, clock: Callable[[], float]) -> None:
        super().__init__(clock=clock)
        self._prefix = f"{agent_id}:"

    def new_item_id(self) -> str:
        """The next item id of the child, prefixed with its agent id."""
        return self._prefix + super().new_item_id()


class RefusedTask:
    """`task` inside a subagent: not offered to its model, and refused with a clear reason if called."""

    @property
    def spec(self) -> ToolSpec:
        """A minimal spec (the child's model is never shown it)."""
        return ToolSpec(name=TASK_TOOL, description="not available to subagents", parameters={})

    @property
    def kind(self) -> ToolKind:
        """Refusing changes nothing."""
        return "read"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The brief's short description."""
        return CallDescription(display=str(arguments.get("description") or ""))

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Always refused."""
        return ToolOutcome(content=DEPTH_REFUSAL, is_error=True)


def wire_child(
    parent: Wiring,
    definition: AgentDefinition,
    *,
    agent_id: str,
    emitter: Emitter,
    clock: Callable[[], float],
    new_id: Callable[[], str],
    past: PastChild | None = None,
) -> tuple[Wiring, SessionOptions]:
    """The parts of a child session of `parent` running `definition` (no I/O beyond the prompt build);
    `past` is the conversation of the child it continues."""
    options = dataclasses.replace(
        parent.options,
        resume=None,
        continue_last=False,
        extra_tools=(),
        until_idle=False,
        output_schema=None,
        subagent=True,
        ephemeral=parent.options.ephemeral or parent.history.handle is None,
    )
    settings = options.settings
    model = definition.model or parent.model
    info = parent.info if model == parent.model else model_info(settings, model)
    parent_handle = parent.history.handle
    # Child transcripts live in the parent's session: `<parent>/sessions/<agent_id>/`.
    store = SessionStore(parent_handle.dir if parent_handle is not None else options.home, clock, new_id)
    history = ChildHistory(
        StoredHistory(
            store,
            session_id=agent_id,
            workspace=options.workspace,
            model=model,
            provider=parent.provider_name,
            ephemeral=options.ephemeral,
            handle=past.handle if past is not None else None,
        )
    )
    names = child_tools(definition, parent.dispatcher.tools)
    sessions = _command_sessions(parent, emitter) if _COMMAND_TOOLS & set(names) else None
    fresh = {t.spec.name: t for t in builtin_tools(sessions)} if sessions is not None else {}
    tools: list[Tool] = [fresh.get(name) or parent.dispatcher.tools[name] for name in names]
    specs = [t.spec for t in tools]
    prompt = SystemPromptBuilder(
        options.scope(settings),
        tools=specs,
        git=parent.dispatcher.context.git,
        agent_prompt=_agent_section(definition),
    )
    state = past.state if past is not None else ConversationState(messages=[])
    policy = parent.dispatcher.policy
    dispatcher = ToolDispatcher(
        tools=[*tools, RefusedTask()],
        context=msgspec.structs.replace(parent.dispatcher.context, progress=None, item_id=""),
        policy=msgspec.structs.replace(policy, mode=stricter(policy.mode, definition.permission_mode)),
        emitter=emitter,
        on_touched=prompt.note_touched,
        approvals=parent.dispatcher.approvals,
        hooks=_child_hooks(parent, emitter, agent_id, definition.name, model),
    )
    dispatcher.grants = parent.dispatcher.grants
    # The child's edits are recorded in its parent's turn, so a rewind of that turn restores them too.
    dispatcher.checkpoints = parent.dispatcher.checkpoints
    # The child's calls go into its parent's account and budget, under its own source.
    usage = (
        UsageTracking(settings, parent.client, history, notify=emitter.emit, parent=parent.usage)
        if parent.usage is not None
        else None
    )
    wiring = Wiring.assemble(
        options,
        thread_id=agent_id,
        model=model,
        provider_name=parent.provider_name,
        info=info,
        client=parent.client,
        history=history,
        state=state,
        toolset=Toolset(tools=tools, sessions=sessions),
        prompt=prompt,
        dispatcher=dispatcher,
        approvals=parent.approvals,
        loop=LoopSetup(
            settings=settings,
            emitter=emitter,
            clock=clock,
            client=usage.client(subagent_source(agent_id)) if usage is not None else parent.client,
            max_requests=definition.max_turns or settings.agent.max_turns,
        ),
        usage=usage,
        environment=parent.environment,
    )
    if parent.skills is not None and parent.skills.path_scoped:
        from vtcode.runtime.subagent_skills import attach_child_path_skills

        attach_child_path_skills(parent.skills, wiring, emitter)
    return wiring, options


def _agent_section(definition: AgentDefinition) -> str:
    role = definition.prompt or definition.description
    return (
        f"# Subagent `{definition.name}`\n\n{role}\n\nYou work for another agent on the brief in the user "
        "message; you cannot see its conversation. Your final answer is all it receives: make it "
        f"complete and self-contained, in these sections:\n\n{HANDOFF}"
    )


def _command_sessions(parent: Wiring, emitter: Emitter) -> SessionManager:
    """The child's own command sessions, with its parent's sandbox and limits: they end with the child."""
    options = parent.options
    own = parent.toolset.sessions
    settings = own.settings if own is not None else None

    env = command_environment(options.env, options.settings)
    return SessionManager(options.workspace, env, settings, notify=emitter.warn)


def _child_hooks(
    parent: Wiring, emitter: Emitter, agent_id: str, agent_type: str, model: str
) -> ToolHooks | None:
    """The parent's hooks for the child's tool calls; their input names the agent (`agent_id`)."""
    hooks = parent.dispatcher.hooks
    if hooks is None:
        return None
    from vtcode.runtime.hook_dispatch import HookDispatch
    from vtcode.runtime.tool_hooks import ToolHooks

    own = hooks.dispatch
    dispatch = HookDispatch(
        own.hooks,
        workspace=own.workspace,
        env=parent.options.env,
        emitter=emitter,
        session_id=own.session_id,
        model=model,
        transcript_path=own.transcript_path,
        permission_mode=own.permission_mode,
        agent={"agent_id": agent_id, "agent_type": agent_type},
        callables=own.callables,
    )
    return ToolHooks(dispatch)
