"""vtcode events as ACP `session/update` payloads: a pure translation, one instance per session.

Text and reasoning stream as chunks; every tool call becomes a `tool_call` when it starts and
`tool_call_update`s while it runs (a command's live output) and when it ends (result, diffs).
"""

from __future__ import annotations

import json
import os
from typing import Any

from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    AgentThoughtChunk,
    ContentToolCallContent,
    FileEditToolCallContent,
    PlanEntry,
    TerminalToolCallContent,
    TextContentBlock,
    ToolCallLocation,
    ToolCallProgress,
    ToolCallStart,
    ToolCallStatus,
    ToolKind,
    Usage,
)

from vtcode.acp.diffs import hunks
from vtcode.protocol import messages
from vtcode.protocol.events import (
    AgentMessageItem,
    CommandExecutionItem,
    Event,
    FileChangeItem,
    Item,
    ItemCompleted,
    ItemDelta,
    ItemStarted,
    ItemStatus,
    ItemUpdated,
    PlanUpdated,
    ReasoningItem,
    ToolCallItem,
)
from vtcode.protocol.plan import PlanStep

Update = AgentMessageChunk | AgentThoughtChunk | ToolCallStart | ToolCallProgress | AgentPlanUpdate
ToolContent = ContentToolCallContent | FileEditToolCallContent | TerminalToolCallContent

# Tool results shown in the editor are cut here (the model's copy is not affected).
MAX_SHOWN_CHARS = 20_000

_KINDS: dict[str, ToolKind] = {
    "read_file": "read",
    "list_files": "search",
    "grep_files": "search",
    "recall_history": "search",
    "write_file": "edit",
    "apply_patch": "edit",
    "exec_command": "execute",
    "write_stdin": "execute",
    "update_plan": "think",
}
_STATUS: dict[ItemStatus, ToolCallStatus] = {
    "in_progress": "in_progress",
    "completed": "completed",
    "failed": "failed",
    "declined": "failed",
}
# Argument keys that name a path, and those worth showing in a title, in order of preference.
_PATH_KEYS = ("path", "file", "file_path", "dir", "directory")
_TITLE_KEYS = (*_PATH_KEYS, "pattern", "query", "url")


def turn_usage(usage: messages.Usage) -> Usage:
    """A turn's token usage as a prompt response reports it."""
    return Usage(
        total_tokens=usage.input_tokens + usage.output_tokens,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        thought_tokens=usage.reasoning_tokens or None,
        cached_read_tokens=usage.cached_input_tokens or None,
        cached_write_tokens=usage.cache_creation_input_tokens or None,
    )


def text_chunk(text: str) -> AgentMessageChunk:
    """An agent message chunk with `text`."""
    return AgentMessageChunk(session_update="agent_message_chunk", content=_text(text))


def thought_chunk(text: str) -> AgentThoughtChunk:
    """An agent thought (reasoning) chunk with `text`."""
    return AgentThoughtChunk(session_update="agent_thought_chunk", content=_text(text))


class Translator:
    """Turns one session's events into ACP updates; remembers which items already streamed text."""

    def __init__(self, workspace: str) -> None:
        self._workspace = workspace
        self._streamed: set[str] = set()

    def updates(self, event: Event) -> list[Update]:
        """The updates `event` stands for (none for events editors have no place for)."""
        match event:
            case ItemDelta(item_id=item_id, kind=kind, delta=delta) if delta:
                self._streamed.add(item_id)
                return [text_chunk(delta) if kind == "text" else thought_chunk(delta)]
            case ItemStarted(item=item) if item is not None:
                return self._started(item)
            case ItemUpdated(item=item) if item is not None:
                return self._progress(item, final=False)
            case ItemCompleted(item=item) if item is not None:
                return self._completed(item)
            case PlanUpdated(plan=steps):
                return [plan_update(steps)]
        return []

    def _started(self, item: Item) -> list[Update]:
        if isinstance(item, AgentMessageItem | ReasoningItem):
            return []
        return [tool_call_start(item, self._workspace)]

    def _completed(self, item: Item) -> list[Update]:
        if isinstance(item, AgentMessageItem | ReasoningItem):
            # Providers that do not stream still show their answer, once.
            if item.id in self._streamed or not item.text:
                return []
            return [text_chunk(item.text) if isinstance(item, AgentMessageItem) else thought_chunk(item.text)]
        return self._progress(item, final=True)

    def _progress(self, item: Item, *, final: bool) -> list[Update]:
        if isinstance(item, AgentMessageItem | ReasoningItem):
            return []
        return [tool_call_progress(item, self._workspace, final=final)]


def plan_update(steps: tuple[PlanStep, ...]) -> AgentPlanUpdate:
    """The whole plan as an ACP `plan` update (clients replace the plan they show with it).

    ACP has no `cancelled` status: such a step shows as completed, its text saying it was cancelled.
    """
    entries = [
        PlanEntry(
            content=f"{step.step} (cancelled)" if step.status == "cancelled" else step.step,
            priority="medium",
            status="completed" if step.status == "cancelled" else step.status,
        )
        for step in steps
    ]
    return AgentPlanUpdate(session_update="plan", entries=entries)


def tool_call_start(item: Item, workspace: str) -> ToolCallStart:
    """The `tool_call` announcing a tool item."""
    return ToolCallStart(
        session_update="tool_call",
        tool_call_id=item.id,
        title=title(item),
        kind=kind(item),
        status="in_progress",
        locations=locations(item, workspace) or None,
        raw_input=_raw_input(item),
    )


def tool_call_progress(item: Item, workspace: str, *, final: bool) -> ToolCallProgress:
    """A `tool_call_update`: live output while running, and status, result and diffs at the end."""
    status: ToolCallStatus = _STATUS[item.status] if final and hasattr(item, "status") else "in_progress"
    return ToolCallProgress(
        session_update="tool_call_update",
        tool_call_id=item.id,
        title=title(item) if final else None,
        status=status,
        content=content(item, workspace) or None,
        locations=(locations(item, workspace) or None) if final else None,
        raw_output=_raw_output(item) if final else None,
    )


def kind(item: Item) -> ToolKind:
    """The ACP tool kind of an item."""
    match item:
        case CommandExecutionItem():
            return "execute"
        case FileChangeItem(changes=changes):
            if changes and all(c.kind == "delete" for c in changes):
                return "delete"
            if changes and all(c.kind == "move" for c in changes):
                return "move"
            return "edit"
        case ToolCallItem(name=name):
            return _KINDS.get(name, "other")
    return "other"


def title(item: Item) -> str:
    """One line for people: the command, the files edited, or the tool and its main argument."""
    match item:
        case CommandExecutionItem(command=command, action=action):
            return f"{action}: {command}" if action and action != "run" else command
        case FileChangeItem(changes=changes):
            return "Edit " + ", ".join(c.path for c in changes) if changes else "Edit files"
        case ToolCallItem(name=name, arguments=arguments):
            args = _arguments(arguments)
            shown = next((args[k] for k in _TITLE_KEYS if isinstance(args.get(k), str) and args[k]), None)
            return f"{name} {shown}" if shown else name
    return "tool"


def locations(item: Item, workspace: str) -> list[ToolCallLocation]:
    """The paths the call touches, absolute (editors follow along)."""
    paths: list[str] = []
    match item:
        case FileChangeItem(changes=changes):
            for change in changes:
                paths.append(change.path)
                if change.move_to:
                    paths.append(change.move_to)
        case ToolCallItem(arguments=arguments):
            args = _arguments(arguments)
            paths += [args[k] for k in _PATH_KEYS if isinstance(args.get(k), str) and args[k]]
    unique = dict.fromkeys(os.path.join(workspace, p) for p in paths)
    return [ToolCallLocation(path=p) for p in unique]


def content(item: Item, workspace: str) -> list[ToolContent]:
    """What the editor shows in the call: a command's output, the diffs of an edit, a tool's result."""
    match item:
        case CommandExecutionItem(aggregated_output=output):
            return [_shown(output)] if output else []
        case FileChangeItem(changes=changes, message=message):
            found: list[ToolContent] = []
            for change in changes:
                path = os.path.join(workspace, change.path)
                for hunk in hunks(change.diff or ""):
                    found.append(
                        FileEditToolCallContent(
                            type="diff", path=path, old_text=hunk.old_text, new_text=hunk.new_text
                        )
                    )
            if message:
                found.append(_shown(message))
            return found
        case ToolCallItem(result=result) if result:
            return [_shown(result)]
    return []


def _shown(text: str) -> ContentToolCallContent:
    if len(text) > MAX_SHOWN_CHARS:
        text = text[:MAX_SHOWN_CHARS] + f"\n… {len(text) - MAX_SHOWN_CHARS} more characters"
    return ContentToolCallContent(type="content", content=_text(text))


def _text(text: str) -> TextContentBlock:
    return TextContentBlock(type="text", text=text)


def _arguments(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _raw_input(item: Item) -> Any:
    match item:
        case CommandExecutionItem(command=command):
            return {"command": command}
        case ToolCallItem(arguments=arguments):
            return _arguments(arguments) or None
    return None


def _raw_output(item: Item) -> Any:
    match item:
        case CommandExecutionItem(exit_code=exit_code):
            return {"exit_code": exit_code} if exit_code is not None else None
        case ToolCallItem(details=details):
            return details
    return None
