"""The `task` tool: delegate a self-contained brief to a subagent, a child `Session` in this process.

The child starts with a fresh context (its definition's prompt, the brief, the project instructions and
the environment context; none of the parent's messages), the parent's tools narrowed to what it
declares, and the parent's approval port, deny rules, sandbox and hooks, so nothing a child does
escapes the choke points its parent has (reference extensibility.md sections 3 and 11.3). Several
`task` calls of one reply run at once (`[agents] max_concurrent`); each returns the child's final answer
with what it cost and changed, and an interrupt of the parent ends every child with its commands.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec

from vtcode.config.schema import Settings
from vtcode.core.agents.brief import brief_problem
from vtcode.core.agents.builtins import BUILTINS, TASK_TOOL
from vtcode.instructions.agent_folders import any_agent_folder
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.messages import ToolResultMessage
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.ops import UserInput
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.providers import model_info
from vtcode.runtime.subagent_model import chosen_model
from vtcode.runtime.subagent_resume import ChildRegistry
from vtcode.runtime.workspace_scope import user_home
from vtcode.store.session import SessionStore
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import CallDescription, Tool, ToolContext, ToolOutcome

if TYPE_CHECKING:
    # What runs a child loads at the first `task` call, not at every session's start; so do the
    # definition parsers when no agent folder exists (the built-in types are plain text until then).
    from vtcode.core.agents.definitions import AgentDefinition
    from vtcode.instructions.agent_files import AgentCatalog
    from vtcode.runtime.session import Session
    from vtcode.runtime.subagent_events import ChildReport, Follow
    from vtcode.runtime.subagent_resume import PastChild
    from vtcode.runtime.wiring import SessionOptions, Wiring

DESCRIPTION = (
    "Delegate a self-contained task to a subagent that works in its own fresh context and returns one "
    "final answer. The subagent cannot see this conversation: `prompt` must be a complete brief (the "
    "goal, the relevant files and facts, constraints, and what to report back); never write "
    "'continue the previous task'. Use it to explore a large codebase without filling your context, "
    "or to run independent pieces of work in parallel (several task calls in one reply run at once). "
    "To follow up with a subagent that already answered (it keeps everything it read and did), set "
    "`resume` to the agent id in its result's first line and send only what is new. "
    "At most {slots} subagents run at once (further calls wait for a slot), and a subagent cannot start "
    "subagents. Only delegate when it helps; simple lookups are faster done yourself. Subagent types:\n"
)


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    # Advertised as an enum of the offered types (`extra_json_schema`); another name is answered with the
    # available ones, not refused by the check.
    subagent_type: Annotated[str, msgspec.Meta(description="Which subagent runs the task.")]
    description: Annotated[
        str, msgspec.Meta(description="A short (3-7 words) label for the task, shown to the user.")
    ]
    prompt: Annotated[str, msgspec.Meta(description="The complete, self-contained brief for the subagent.")]
    resume: Annotated[
        str | None,
        msgspec.Meta(
            description="The agent id (`agent-...`) of an earlier subagent to continue with this prompt; "
            "omit it to start a new one."
        ),
    ] = None
    model: Annotated[
        str | None,
        msgspec.Meta(
            description="A model for this subagent (for example a smaller one for a simple search); omit "
            "it for the subagent type's own model, or yours."
        ),
    ] = None


class TaskTool:
    """`task(subagent_type, description, prompt)`; bound to its session's parts once they exist."""

    def __init__(
        self,
        catalog: AgentCatalog | Callable[[], AgentCatalog],
        *,
        max_concurrent: int,
        monotonic: Callable[[], float] = time.monotonic,
        offered: Sequence[tuple[str, str]] | None = None,
    ) -> None:
        # A catalog, or what loads it at the first call; then `offered` (name, description) describes
        # the types in the spec without it.
        self._catalog = catalog
        self._slots = asyncio.Semaphore(max_concurrent)
        self._monotonic = monotonic
        self._parent: Wiring | None = None
        self._emitter: Emitter | None = None
        self._clock: Callable[[], float] = time.time
        self._new_id: Callable[[], str] = lambda: str(uuid.uuid4())
        self._children = ChildRegistry()
        # Children whose `task` call was interrupted, by call id: the parent's model learns their ids.
        self._stopped: dict[str, str] = {}
        if offered is None:
            # A type's own limit is said before it is chosen, not found out when it stops.
            offered = [
                (
                    a.name,
                    a.description + (f" (stops after {a.max_turns} model requests)" if a.max_turns else ""),
                )
                for a in self.catalog.agents.values()
            ]
        agents = "\n".join(f"- {name}: {description}" for name, description in offered)
        self._spec = ToolSpec(
            name=TASK_TOOL,
            description=DESCRIPTION.format(slots=max_concurrent) + agents,
            parameters=tool_parameters(
                _Args, extra_json_schema={"subagent_type": {"enum": [name for name, _ in offered]}}
            ),
        )

    def bind(
        self, parent: Wiring, emitter: Emitter, *, clock: Callable[[], float], new_id: Callable[[], str]
    ) -> None:
        """Attach the parent session's parts (its wiring is built after its tool list)."""
        self._parent, self._emitter, self._clock, self._new_id = parent, emitter, clock, new_id

    @property
    def catalog(self) -> AgentCatalog:
        """The subagent types by name (loaded at the first use when the session started without it)."""
        if callable(self._catalog):
            self._catalog = self._catalog()
        return self._catalog

    @property
    def spec(self) -> ToolSpec:
        """Name, description (with the subagent types) and JSON Schema parameters."""
        return self._spec

    @property
    def kind(self) -> ToolKind:
        """The call itself changes nothing (each of the child's calls is judged on its own), so several
        `task` calls of one reply run concurrently, like reads."""
        return "read"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """`explore: find the config loader`."""
        kind = str(arguments.get("subagent_type") or "?")
        return CallDescription(display=f"{kind}: {arguments.get('description') or ''}".strip())

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Run one child to the end of its turn and report its answer (a bad call is an error result)."""
        parent, emitter = self._parent, self._emitter
        if parent is None or emitter is None:
            return ToolOutcome(content="task is not available in this session", is_error=True)
        try:
            args = parse_arguments(arguments, _Args)
        except VtcodeError as error:
            return ToolOutcome(content=error.message, is_error=True)
        problem = brief_problem(args.prompt, resuming=args.resume is not None)
        if problem is not None:
            return ToolOutcome(content=problem, is_error=True)
        past = None
        if args.resume is not None:
            found = await self._children.find(
                args.resume, self._child_store(parent), parent.options.workspace, parent.state.messages
            )
            if isinstance(found, str):
                return ToolOutcome(content=found, is_error=True)
            past = found
        try:
            return await self._delegate(parent, emitter, args, arguments, ctx=ctx, past=past)
        finally:
            if past is not None:
                self._children.running.discard(past.agent_id)

    async def _delegate(
        self,
        parent: Wiring,
        emitter: Emitter,
        args: _Args,
        arguments: dict[str, Any],
        *,
        ctx: ToolContext,
        past: PastChild | None,
    ) -> ToolOutcome:
        """Run the child (new or continued) in a free slot and make its report the result."""
        # A continued child keeps its own type (and so its tools and prompt), whatever the call says.
        kind = (past.agent_type if past is not None else None) or args.subagent_type
        definition = self.catalog.agents.get(kind)
        if definition is None:
            known = ", ".join(self.catalog.agents)
            return ToolOutcome(content=f"unknown subagent_type {kind!r}; available: {known}", is_error=True)
        chosen = chosen_model(args.model, parent.options.settings)
        if isinstance(chosen, ToolOutcome):
            return chosen
        if chosen is not None:
            definition = dataclasses.replace(definition, model=chosen)
        async with self._slots:
            report = await self._run_child(
                parent=parent,
                emitter=emitter,
                definition=definition,
                brief=args.prompt,
                arguments=arguments,
                item_id=ctx.item_id,
                call_id=ctx.call_id,
                past=past,
            )
        return ToolOutcome(
            content=report.text(),
            is_error=report.status != "completed",
            touched_paths=report.files_changed,
            extra=report.details(),
        )

    def unfinished_note(self, call_id: str) -> str | None:
        """For a `task` call interrupted while its child ran: how to let that child go on."""
        agent_id = self._stopped.pop(call_id, None)
        if agent_id is None:
            return None
        return (
            f"Subagent {agent_id} was stopped; it keeps what it did so far: to let it go on, call task "
            f'with resume="{agent_id}" and say what to do next.'
        )

    def _child_store(self, parent: Wiring) -> SessionStore | None:
        """Where the parent session keeps its children's transcripts (None while it has no folder)."""
        handle = parent.history.handle
        if handle is None or parent.history.ephemeral:
            return None
        return SessionStore(handle.dir, self._clock, self._new_id)

    async def _run_child(
        self,
        *,
        parent: Wiring,
        emitter: Emitter,
        definition: AgentDefinition,
        brief: str,
        arguments: Mapping[str, Any],
        item_id: str,
        call_id: str,
        past: PastChild | None,
    ) -> ChildReport:
        # Imported here: a session that never delegates never loads the child machinery.
        from vtcode.runtime.session import Session
        from vtcode.runtime.subagent_events import (
            ChildReport,
            Follow,
            cost_since,
            final_answer,
            last_words,
            spent,
        )
        from vtcode.runtime.subagent_label import speaking_for
        from vtcode.runtime.subagent_wiring import ChildEmitter, wire_child

        agent_id = past.agent_id if past is not None else f"agent-{self._new_id().replace('-', '')[:12]}"
        started = self._monotonic()
        child_emitter = ChildEmitter(agent_id, clock=self._clock)
        wiring, options = wire_child(
            parent,
            definition,
            agent_id=agent_id,
            emitter=child_emitter,
            clock=self._clock,
            new_id=self._new_id,
            past=past,
        )
        for text in past.notices if past is not None else ():
            emitter.warn(f"subagent {agent_id}: {text}")
        earlier = len(wiring.state.messages)
        spent_before = spent(parent, agent_id)
        follow = Follow(
            emitter,
            label=f"{definition.name} {agent_id}",
            item_id=item_id,
            arguments=json.dumps(dict(arguments)),
            agent_type=definition.name,
        )
        await _fire(parent, "SubagentStart", {"agent_id": agent_id, "agent_type": definition.name})
        with speaking_for(follow.label):
            # The child's tasks (its driver, and each turn it starts) keep the label.
            session = Session(wiring, child_emitter, options, new_id=self._new_id, clock=self._clock)
        reader = asyncio.create_task(follow.run(session.events()))
        self._children.running.add(agent_id)
        try:
            await session.submit(UserInput(brief))
            blocks = 0
            while True:
                await follow.turn_ended()
                reason = await _subagent_stop(parent, wiring, definition.name, follow, blocks)
                if reason is None:
                    break
                blocks += 1
                await session.submit(UserInput(f"A SubagentStop hook asks you to continue: {reason}"))
        except asyncio.CancelledError:
            self._stopped[call_id] = agent_id
            raise
        finally:
            # Also when the parent is interrupted: the child's turn ends with its commands first, and a
            # second cancel (the rest of the tool batch being stopped) does not cut that short.
            closing = asyncio.ensure_future(_close(session, reader, wiring))
            try:
                await asyncio.shield(closing)
            except asyncio.CancelledError:
                await closing
                self._stopped[call_id] = agent_id
                raise
            finally:
                self._children.running.discard(agent_id)
                stored = not wiring.history.ephemeral and wiring.history.handle is not None
                self._children.ended(agent_id, definition.name, None if stored else wiring.state)
        answer = final_answer(wiring)
        status = "failed" if follow.failure else "interrupted" if follow.interrupted else "completed"
        report = ChildReport(
            agent_id=agent_id,
            agent_type=definition.name,
            status=status,
            answer=answer if status == "completed" else (follow.failure or answer),
            usage=wiring.state.usage_total,
            tool_calls=sum(isinstance(m, ToolResultMessage) for m in wiring.state.messages[earlier:]),
            duration_ms=round((self._monotonic() - started) * 1000),
            files_changed=tuple(follow.files),
            last_words="" if status == "completed" else last_words(wiring, earlier),
            cost_usd=cost_since(spent_before, spent(parent, agent_id)),
            cost_tracked=parent.usage is not None,
        )
        parent.runner.add_delegated(report.usage)
        return report


async def _close(session: Session, reader: asyncio.Task[None], wiring: Wiring) -> None:
    """End a child: its turn, its commands, its event stream, its transcript."""
    await session.aclose()
    await asyncio.gather(reader, return_exceptions=True)
    await _settled(wiring)


async def _settled(wiring: Wiring) -> None:
    """The child's transcript is written (its first checkpoint is written in the background)."""
    from vtcode.runtime.subagent_history import ChildHistory

    if isinstance(wiring.history, ChildHistory):
        await wiring.history.settled()


async def _fire(parent: Wiring, event: Any, payload: dict[str, Any]) -> None:
    hooks = parent.dispatcher.hooks
    if hooks is not None and hooks.dispatch.active(event):
        await hooks.dispatch.fire(event, payload, subject=payload["agent_type"])


async def _subagent_stop(
    parent: Wiring, wiring: Wiring, agent_type: str, follow: Follow, blocks: int
) -> str | None:
    """SubagentStop at the end of a child's turn: the reason a hook gives for it to go on, or None.

    A failed or interrupted child is not asked to go on; after 8 blocks it ends anyway.
    """
    hooks = parent.dispatcher.hooks
    if hooks is None or not hooks.dispatch.active("SubagentStop"):
        return None
    from vtcode.runtime.lifecycle_hooks import past_stop_cap
    from vtcode.runtime.subagent_events import final_answer

    await _settled(wiring)
    handle = wiring.history.handle
    payload = {
        "agent_id": wiring.thread_id,
        "agent_type": agent_type,
        "agent_transcript_path": str(handle.history_path) if handle is not None else "",
        "last_assistant_message": final_answer(wiring),
        "stop_hook_active": blocks > 0,
    }
    combined = await hooks.dispatch.fire("SubagentStop", payload, subject=agent_type)
    if not combined.blocked or combined.stop or follow.failure or follow.interrupted:
        return None
    blocked = f"a SubagentStop hook blocked subagent {wiring.thread_id}"
    if past_stop_cap(parent.dispatcher.emitter, blocks, blocked, "it", combined.reason):
        return None
    return combined.reason or "a SubagentStop hook blocked the end"


def task_tool(
    options: SessionOptions, settings: Settings, tools: Sequence[Tool], notice: Callable[[str], None]
) -> TaskTool | None:
    """The session's `task` tool with the subagent types found (each bad definition file reported);
    None when `[agents] enabled` is off."""
    return task_tool_for(
        options.workspace, home=options.home, env=options.env, settings=settings, tools=tools, notice=notice
    )


def task_tool_for(
    workspace: Path,
    *,
    home: Path,
    env: Mapping[str, str],
    settings: Settings,
    tools: Sequence[Tool],
    notice: Callable[[str], None],
) -> TaskTool | None:
    """`task_tool` outside a session (`vtcode prompt` shows the same tool list, and cache key)."""
    if not settings.agents.enabled:
        return None
    if not any_agent_folder(workspace, home, user_home(env)):
        # The built-in types only: described from their text now, defined at the first `task` call.
        return TaskTool(
            _builtin_catalog,
            max_concurrent=settings.agents.max_concurrent,
            offered=[(b.name, b.description) for b in BUILTINS],
        )
    from vtcode.core.agents.definitions import known_names
    from vtcode.instructions.agent_files import load_agents

    names = {t.spec.name for t in tools} | {TASK_TOOL}

    def known_model(model: str) -> bool:
        return model in settings.models or model_info(settings, model).known

    catalog = load_agents(
        workspace,
        home,
        user_home(env),
        known_tool=known_names(names),
        known_model=known_model,
    )
    for text in catalog.diagnostics:
        notice(f"agents: {text}")
    return TaskTool(catalog, max_concurrent=settings.agents.max_concurrent)


def _builtin_catalog() -> AgentCatalog:
    """The catalog of a session without agent folders: the built-in types."""
    from vtcode.core.agents.definitions import BUILTIN_AGENTS, by_precedence
    from vtcode.instructions.agent_files import AgentCatalog

    agents, notes = by_precedence(BUILTIN_AGENTS)
    return AgentCatalog(agents, tuple(notes))
