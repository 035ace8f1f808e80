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
import json
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from vtcode.config.schema import Settings
from vtcode.core.agents.definitions import TASK_TOOL, AgentDefinition, known_names
from vtcode.instructions.agent_files import AgentCatalog, load_agents
from vtcode.protocol.events import (
    ApprovalRequested,
    ApprovalResolved,
    CommandExecutionItem,
    Event,
    FileChangeItem,
    ItemCompleted,
    ItemStarted,
    ItemUpdated,
    ToolCallItem,
    TurnFailed,
)
from vtcode.protocol.messages import AssistantMessage, ToolResultMessage, Usage
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.ops import UserInput
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.providers import model_info
from vtcode.runtime.system_prompt import user_home
from vtcode.tools.base import CallDescription, Tool, ToolContext, ToolOutcome

if TYPE_CHECKING:
    from vtcode.runtime.wiring import SessionOptions, Wiring

DESCRIPTION = (
    "Delegate a self-contained task to a subagent that works in its own fresh context and returns one "
    "final answer. The subagent cannot see this conversation: `prompt` must be a complete brief (the "
    "goal, the relevant files and facts, constraints, and what to report back); never write "
    "'continue the previous task'. Use it to explore a large codebase without filling your context, "
    "or to run independent pieces of work in parallel (several task calls in one reply run at once). "
    "Only delegate when it helps; simple lookups are faster done yourself. Subagent types:\n"
)


@dataclass(frozen=True)
class ChildReport:
    """What one child did, as the `task` result and its details tell it."""

    agent_id: str
    agent_type: str
    status: str
    answer: str
    usage: Usage
    tool_calls: int
    duration_ms: int
    files_changed: tuple[str, ...]

    def text(self) -> str:
        """The result the parent's model reads: a header line of facts, then the child's answer."""
        files = ", ".join(self.files_changed) or "none"
        tokens = self.usage.input_tokens + self.usage.output_tokens
        head = (
            f"[subagent {self.agent_type} {self.agent_id}: {self.status}; {tokens} tokens "
            f"({self.usage.input_tokens} in, {self.usage.output_tokens} out); {self.tool_calls} tool "
            f"calls; {self.duration_ms} ms; files changed: {files}]"
        )
        return f"{head}\n\n{self.answer}" if self.answer else head

    def details(self) -> dict[str, Any]:
        """The same facts as data (the `tool_call` item's details)."""
        return {
            "agent_id": self.agent_id,
            "agent_type": self.agent_type,
            "status": self.status,
            "input_tokens": self.usage.input_tokens,
            "output_tokens": self.usage.output_tokens,
            "tool_calls": self.tool_calls,
            "duration_ms": self.duration_ms,
            "files_changed": list(self.files_changed),
        }


@dataclass
class _Follow:
    """What the parent learns from a child's event stream while it runs."""

    files: dict[str, None] = field(default_factory=dict)
    failure: str = ""
    interrupted: bool = False


class TaskTool:
    """`task(subagent_type, description, prompt)`; bound to its session's parts once they exist."""

    def __init__(
        self,
        catalog: AgentCatalog,
        *,
        max_concurrent: int,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.catalog = catalog
        self._slots = asyncio.Semaphore(max_concurrent)
        self._monotonic = monotonic
        self._parent: Wiring | None = None
        self._emitter: Emitter | None = None
        self._clock: Callable[[], float] = time.time
        self._new_id: Callable[[], str] = lambda: str(uuid.uuid4())
        agents = "\n".join(f"- {a.name}: {a.description}" for a in catalog.agents.values())
        self._spec = ToolSpec(
            name=TASK_TOOL,
            description=DESCRIPTION + agents,
            parameters={
                "type": "object",
                "properties": {
                    "subagent_type": {
                        "type": "string",
                        "enum": list(catalog.agents),
                        "description": "Which subagent runs the task.",
                    },
                    "description": {
                        "type": "string",
                        "description": "A short (3-7 words) label for the task, shown to the user.",
                    },
                    "prompt": {
                        "type": "string",
                        "description": "The complete, self-contained brief for the subagent.",
                    },
                },
                "required": ["subagent_type", "description", "prompt"],
                "additionalProperties": False,
            },
        )

    def bind(
        self, parent: Wiring, emitter: Emitter, *, clock: Callable[[], float], new_id: Callable[[], str]
    ) -> None:
        """Attach the parent session's parts (its wiring is built after its tool list)."""
        self._parent, self._emitter, self._clock, self._new_id = parent, emitter, clock, new_id

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
        kind = arguments.get("subagent_type")
        brief = arguments.get("prompt")
        definition = self.catalog.agents.get(kind) if isinstance(kind, str) else None
        if definition is None:
            known = ", ".join(self.catalog.agents)
            return ToolOutcome(content=f"unknown subagent_type {kind!r}; available: {known}", is_error=True)
        if not isinstance(brief, str) or not brief.strip():
            return ToolOutcome(content="`prompt` must be the subagent's complete brief", is_error=True)
        async with self._slots:
            report = await self._run_child(
                parent=parent,
                emitter=emitter,
                definition=definition,
                brief=brief,
                arguments=arguments,
                item_id=ctx.item_id,
            )
        return ToolOutcome(
            content=report.text(),
            is_error=report.status != "completed",
            touched_paths=report.files_changed,
            extra=report.details(),
        )

    async def _run_child(
        self,
        *,
        parent: Wiring,
        emitter: Emitter,
        definition: AgentDefinition,
        brief: str,
        arguments: Mapping[str, Any],
        item_id: str,
    ) -> ChildReport:
        # Imported here: a session that never delegates never loads the child machinery.
        from vtcode.runtime.session import Session
        from vtcode.runtime.subagent_wiring import ChildEmitter, wire_child

        agent_id = f"agent-{self._new_id().replace('-', '')[:12]}"
        started = self._monotonic()
        child_emitter = ChildEmitter(agent_id, clock=self._clock)
        wiring, options = wire_child(
            parent,
            definition,
            agent_id=agent_id,
            emitter=child_emitter,
            clock=self._clock,
            new_id=self._new_id,
        )
        label = f"{definition.name} {agent_id}"
        show = _Progress(emitter, item_id, json.dumps(dict(arguments)), agent_id, definition.name)
        await _fire(parent, "SubagentStart", {"agent_id": agent_id, "agent_type": definition.name})
        session = Session(wiring, child_emitter, options, new_id=self._new_id, clock=self._clock)
        follow = _Follow()
        reader = asyncio.create_task(_follow(session, emitter, label, follow, show))
        try:
            await session.submit(UserInput(brief))
            await reader
        except asyncio.CancelledError:
            # The parent was interrupted: the child's turn ends with its commands, then this call does.
            await session.aclose()
            await asyncio.gather(reader, return_exceptions=True)
            await _settled(wiring)
            raise
        await _settled(wiring)
        answer = _final_answer(wiring)
        status = "failed" if follow.failure else "interrupted" if follow.interrupted else "completed"
        report = ChildReport(
            agent_id=agent_id,
            agent_type=definition.name,
            status=status,
            answer=answer if status == "completed" else (follow.failure or answer),
            usage=wiring.state.usage_total,
            tool_calls=sum(isinstance(m, ToolResultMessage) for m in wiring.state.messages),
            duration_ms=round((self._monotonic() - started) * 1000),
            files_changed=tuple(follow.files),
        )
        parent.runner.add_delegated(report.usage)
        handle = wiring.history.handle
        await _fire(
            parent,
            "SubagentStop",
            {
                "agent_id": agent_id,
                "agent_type": definition.name,
                "agent_transcript_path": str(handle.history_path) if handle is not None else "",
                "last_assistant_message": answer,
                "stop_hook_active": False,
            },
        )
        return report


class _Progress:
    """Shows a running child on its `task` call's item: which tool it is using now."""

    def __init__(
        self, emitter: Emitter, item_id: str, arguments: str, agent_id: str, agent_type: str
    ) -> None:
        self.emitter = emitter
        self.item_id = item_id
        self.arguments = arguments
        self.details: dict[str, Any] = {"agent_id": agent_id, "agent_type": agent_type, "current_tool": ""}

    def tool(self, current: str) -> None:
        """The child started a tool call."""
        if not self.item_id:
            return
        self.details = {**self.details, "current_tool": current}
        item = ToolCallItem(
            id=self.item_id, name=TASK_TOOL, arguments=self.arguments, details=dict(self.details)
        )
        self.emitter.emit(ItemUpdated(item=item))


async def _follow(session: Any, parent: Emitter, label: str, follow: _Follow, show: _Progress) -> None:
    """Read a child's events until its stream ends; its approvals go to the parent's front end."""
    async for event in session.events():
        _observe(event, parent, label, follow, show)


def _observe(event: Event, parent: Emitter, label: str, follow: _Follow, show: _Progress) -> None:
    match event:
        case ApprovalRequested():
            why = f"subagent {label}: {event.reason}" if event.reason else f"subagent {label}"
            parent.emit(_relabel(event, label, why))
        case ApprovalResolved():
            parent.emit(event)
        case ItemStarted(item=CommandExecutionItem(command=command)):
            show.tool(f"exec_command {command}")
        case ItemStarted(item=FileChangeItem(tool=tool, paths=paths)):
            show.tool(f"{tool} {' '.join(paths)}".strip())
        case ItemStarted(item=ToolCallItem(name=name)):
            show.tool(name)
        case ItemCompleted(item=FileChangeItem(status="completed", changes=changes)):
            for change in changes:
                follow.files[change.move_to or change.path] = None
        case TurnFailed(kind=kind, message=message):
            if kind == "interrupted":
                follow.interrupted = True
            else:
                follow.failure = message or kind
        case _:
            pass


def _relabel(event: ApprovalRequested, label: str, reason: str) -> ApprovalRequested:
    """The child's approval request as the parent's front end shows it: labelled with the child."""
    return msgspec.structs.replace(event, display=f"[subagent {label}] {event.display}", reason=reason)


async def _settled(wiring: Wiring) -> None:
    """The child's transcript is written (its first checkpoint is written in the background)."""
    from vtcode.runtime.subagent_history import ChildHistory

    if isinstance(wiring.history, ChildHistory):
        await wiring.history.settled()


def _final_answer(wiring: Wiring) -> str:
    for message in reversed(wiring.state.messages):
        if isinstance(message, AssistantMessage) and not message.tool_calls:
            return message.content
    return ""


async def _fire(parent: Wiring, event: Any, payload: dict[str, Any]) -> None:
    hooks = parent.dispatcher.hooks
    if hooks is not None and hooks.dispatch.active(event):
        await hooks.dispatch.fire(event, payload, subject=payload["agent_type"])


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
