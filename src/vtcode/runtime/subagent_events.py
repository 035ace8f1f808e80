"""What a parent learns from its subagent's event stream: its approvals (passed on, labelled), the tool
it is using now (shown on the `task` call's item), the files it changed, how each of its turns ended;
and the report the `task` call returns."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from vtcode.core.agents.builtins import TASK_TOOL
from vtcode.core.pricing import format_cost
from vtcode.core.usage_ledger import subagent_source
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
    TurnCompleted,
    TurnFailed,
)
from vtcode.protocol.messages import AssistantMessage, Usage
from vtcode.runtime.emitter import Emitter

if TYPE_CHECKING:
    from vtcode.runtime.session_parts import Wiring


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
    # What its calls cost at list prices (None: a price is unknown); no tracking at all: not said.
    cost_usd: float | None = 0.0
    cost_tracked: bool = False
    # What a child that did not finish said last (its progress so far); empty for a finished one.
    last_words: str = ""

    def text(self) -> str:
        """The result the parent's model reads: a header line of facts, then the child's answer (for a
        child that stopped early: why, what it said last, and how to let it go on)."""
        files = ", ".join(self.files_changed) or "none"
        tokens = self.usage.input_tokens + self.usage.output_tokens
        cost = f", {format_cost(self.cost_usd)}" if self.cost_tracked else ""
        head = (
            f"[subagent {self.agent_type} {self.agent_id}: {self.status}; {tokens} tokens "
            f"({self.usage.input_tokens} in, {self.usage.output_tokens} out){cost}; {self.tool_calls} tool "
            f"calls; {self.duration_ms} ms; files changed: {files}]"
        )
        parts = [head, self.answer] if self.answer else [head]
        if self.status != "completed":
            if self.last_words:
                parts.append(f"Its last message before it stopped:\n{self.last_words}")
            parts.append(
                f'It keeps what it did so far: to let it go on, call task with resume="{self.agent_id}" '
                "and say what to do next."
            )
        return "\n\n".join(parts)

    def details(self) -> dict[str, Any]:
        """The same facts as data (the `tool_call` item's details)."""
        return {
            "agent_id": self.agent_id,
            "agent_type": self.agent_type,
            "status": self.status,
            "input_tokens": self.usage.input_tokens,
            "output_tokens": self.usage.output_tokens,
            **({"cost_usd": self.cost_usd} if self.cost_tracked else {}),
            "tool_calls": self.tool_calls,
            "duration_ms": self.duration_ms,
            "files_changed": list(self.files_changed),
        }


class Follow:
    """Reads one child's events (`run`) and tells when each of its turns ended (`turn_ended`)."""

    def __init__(self, parent: Emitter, *, label: str, item_id: str, arguments: str, agent_type: str) -> None:
        self.parent = parent
        self.label = label
        self.item_id = item_id
        self.arguments = arguments
        self.details: dict[str, Any] = {
            "agent_id": label.rsplit(" ", 1)[-1],
            "agent_type": agent_type,
            "current_tool": "",
        }
        self.files: dict[str, None] = {}
        self.failure = ""
        self.interrupted = False
        self._ended = asyncio.Event()

    async def run(self, events: AsyncIterator[Event]) -> None:
        """Observe every event until the child's stream ends."""
        try:
            async for event in events:
                self.observe(event)
        finally:
            self._ended.set()

    async def turn_ended(self) -> None:
        """Wait for the end of the child's current turn (or of its stream)."""
        await self._ended.wait()
        self._ended.clear()

    def observe(self, event: Event) -> None:
        """Take in one event of the child."""
        match event:
            case ApprovalRequested():
                why = f"subagent {self.label}: {event.reason}" if event.reason else f"subagent {self.label}"
                display = f"[subagent {self.label}] {event.display}"
                self.parent.emit(msgspec.structs.replace(event, display=display, reason=why))
            case ApprovalResolved():
                self.parent.emit(event)
            case ItemStarted(item=CommandExecutionItem(command=command)):
                self._tool(f"exec_command {command}")
            case ItemStarted(item=FileChangeItem(tool=tool, paths=paths)):
                self._tool(f"{tool} {' '.join(paths)}".strip())
            case ItemStarted(item=ToolCallItem(name=name)):
                self._tool(name)
            case ItemCompleted(item=FileChangeItem(status="completed", changes=changes)):
                for change in changes:
                    self.files[change.move_to or change.path] = None
            case TurnCompleted():
                self._ended.set()
            case TurnFailed(kind=kind, message=message):
                if kind == "interrupted":
                    self.interrupted = True
                else:
                    self.failure = message or kind
                self._ended.set()
            case _:
                pass

    def _tool(self, current: str) -> None:
        """The child started a tool call: shown on the parent's `task` item."""
        if not self.item_id:
            return
        self.details = {**self.details, "current_tool": current}
        item = ToolCallItem(
            id=self.item_id, name=TASK_TOOL, arguments=self.arguments, details=dict(self.details)
        )
        self.parent.emit(ItemUpdated(item=item))


def spent(parent: Wiring, agent_id: str) -> float | None:
    """What the calls of `agent_id` cost so far in this run (None: a price is unknown)."""
    if parent.usage is None:
        return 0.0
    source = subagent_source(agent_id)
    costs = [row.cost_usd for row in parent.usage.ledger.rows("run") if row.source == source]
    return None if None in costs else sum(c for c in costs if c is not None)


def cost_since(before: float | None, after: float | None) -> float | None:
    """The cost between two `spent` readings (None when either is unknown)."""
    return None if before is None or after is None else max(0.0, after - before)


def last_words(wiring: Wiring, earlier: int) -> str:
    """What the child said last in this run (text beside its tool calls counts too)."""
    for message in reversed(wiring.state.messages[earlier:]):
        if isinstance(message, AssistantMessage) and message.content.strip():
            return message.content.strip()
    return ""


def final_answer(wiring: Wiring) -> str:
    """The child's last answer without tool calls ("" when it gave none)."""
    for message in reversed(wiring.state.messages):
        if isinstance(message, AssistantMessage) and not message.tool_calls:
            return message.content
    return ""
