"""Run the tool calls of one model reply: approval, execution, items, exactly one result per call."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from vtcode.core.approvals import TOOL_KINDS, ApprovalPolicy, CallKind, Decision, decide, decide_input
from vtcode.exec.progress import ExecProgress, ProgressSink, reporting_progress
from vtcode.protocol.events import (
    CommandExecutionItem,
    FileChangeItem,
    Item,
    ItemCompleted,
    ItemStarted,
    ItemStatus,
    ItemUpdated,
    ToolCallItem,
)
from vtcode.protocol.messages import Message, ToolCall, ToolResultMessage
from vtcode.runtime.emitter import Emitter
from vtcode.tools.base import Tool, ToolContext, ToolOutcome
from vtcode.tools.write_stdin import WriteStdinTool

log = logging.getLogger(__name__)

Commit = Callable[[Sequence[Message]], None]

EDIT_TOOLS = frozenset({"write_file", "apply_patch"})
COMMAND_TOOLS = frozenset({"exec_command"})
# Calls on a running command session; shown as `command_execution` items like the command itself.
SESSION_TOOLS = frozenset({"write_stdin"})
# Tools whose calls are shown as `command_execution` items, with live output while they run.
_COMMAND_ITEM_TOOLS = COMMAND_TOOLS | SESSION_TOOLS
# Characters of live output carried by each `item.updated` (the tail of what the command printed).
LIVE_OUTPUT_CHARS = 8192
INTERRUPTED = "interrupted by the user before this call finished"


class ToolDispatcher:
    """Executes tool calls under the approval policy and emits their items."""

    def __init__(
        self,
        *,
        tools: Sequence[Tool],
        context: ToolContext,
        policy: ApprovalPolicy,
        emitter: Emitter,
        on_touched: Callable[[Sequence[str]], None] | None = None,
    ) -> None:
        self.tools: Mapping[str, Tool] = {t.spec.name: t for t in tools}
        self.context = context
        self.policy = policy
        self.emitter = emitter
        self.on_touched = on_touched

    async def run_calls(self, calls: Sequence[ToolCall], commit: Commit) -> list[ToolResultMessage]:
        """Run `calls` (read-only ones in parallel batches) and commit their results in call order.

        Cancellation, or any failure on the way, still commits one result per call: finished ones as
        they are, the rest as not run, so the stored history stays valid and resumable (providers
        reject a tool call without its result).
        """
        results: dict[str, ToolResultMessage] = {}
        try:
            for batch in self._batches(calls):
                await self._run_batch(batch, results)
        except BaseException as exc:
            reason = INTERRUPTED if isinstance(exc, asyncio.CancelledError) else f"not run: {exc}"
            ordered = [
                results.get(c.id)
                or ToolResultMessage(call_id=c.id, name=c.name, content=reason, is_error=True)
                for c in calls
            ]
            commit(ordered)
            raise
        ordered = [results[c.id] for c in calls]
        commit(ordered)
        return ordered

    async def _run_batch(self, batch: Sequence[ToolCall], results: dict[str, ToolResultMessage]) -> None:
        """Run calls concurrently; if one fails, stop the others before the failure propagates."""
        tasks = [asyncio.ensure_future(self._run_one(call)) for call in batch]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        finally:
            for call, task in zip(batch, tasks, strict=True):
                if task.done() and not task.cancelled() and task.exception() is None:
                    results[call.id] = task.result()

    def _batches(self, calls: Sequence[ToolCall]) -> list[list[ToolCall]]:
        batches: list[list[ToolCall]] = []
        for call in calls:
            tool = self.tools.get(call.name)
            parallel = tool is not None and tool.read_only
            if parallel and batches and all(self._is_read_only(c) for c in batches[-1]):
                batches[-1].append(call)
            else:
                batches.append([call])
        return batches

    def _is_read_only(self, call: ToolCall) -> bool:
        tool = self.tools.get(call.name)
        return tool is not None and tool.read_only

    async def _run_one(self, call: ToolCall) -> ToolResultMessage:
        item_id = self.emitter.new_item_id()
        try:
            arguments = _parse_arguments(call.arguments)
        except ValueError as exc:
            return self._error(call, item_id, f"invalid JSON arguments for {call.name}: {exc}")
        tool = self.tools.get(call.name)
        if tool is None:
            known = ", ".join(sorted(self.tools))
            return self._error(call, item_id, f"unknown tool {call.name!r}; available: {known}")
        decision = self._decide(call.name, arguments)
        shown = _shown_arguments(tool, arguments)
        started = _item(call, item_id, shown, status="in_progress")
        if decision.action != "allow":
            self.emitter.emit(ItemStarted(item=started))
            declined = _item(call, item_id, shown, status="declined", text=decision.reason)
            self.emitter.emit(ItemCompleted(item=declined))
            content = f"not run: {decision.reason}"
            return ToolResultMessage(call_id=call.id, name=call.name, content=content, is_error=True)
        self.emitter.emit(ItemStarted(item=started))
        live = self._live_output(item_id) if call.name in _COMMAND_ITEM_TOOLS else None
        try:
            with reporting_progress(live):
                outcome = await tool.run(arguments, self.context)
        except asyncio.CancelledError:
            failed = _item(call, item_id, shown, status="failed", text=INTERRUPTED)
            self.emitter.emit(ItemCompleted(item=failed))
            raise
        except Exception as exc:  # a tool bug must not end the session; the model sees the failure
            log.debug("tool %s raised", call.name, exc_info=True)
            outcome = ToolOutcome(content=f"{call.name} failed: {exc}", is_error=True)
        if outcome.touched_paths and self.on_touched is not None:
            self.on_touched(outcome.touched_paths)
        status: ItemStatus = "failed" if outcome.is_error else "completed"
        done = _item(call, item_id, shown, status=status, text=outcome.content, outcome=outcome)
        self.emitter.emit(ItemCompleted(item=done))
        return ToolResultMessage(
            call_id=call.id, name=call.name, content=outcome.content, is_error=outcome.is_error
        )

    def _live_output(self, item_id: str) -> ProgressSink:
        """Turn a running command's output into `item.updated` events for its item."""
        shown = ""

        def update(progress: ExecProgress) -> None:
            nonlocal shown
            shown = (shown + progress.text)[-LIVE_OUTPUT_CHARS:]
            item = CommandExecutionItem(id=item_id, command=progress.command, aggregated_output=shown)
            self.emitter.emit(ItemUpdated(item=item))

        return update

    def _decide(self, name: str, arguments: Mapping[str, Any]) -> Decision:
        # A tool the table does not know is treated as the most restricted kind, a command.
        if name in SESSION_TOOLS and arguments.get("chars"):
            tool = self.tools.get(name)
            pending = tool.pending_input(dict(arguments)) if isinstance(tool, WriteStdinTool) else ""
            return decide_input(self.policy, str(arguments["chars"]), tool=name, pending=pending)
        kind: CallKind = TOOL_KINDS.get(name, "command")
        command = str(arguments.get("cmd", "")) if kind == "command" else ""
        return decide(self.policy, kind, command, tool=name)

    def _error(self, call: ToolCall, item_id: str, message: str) -> ToolResultMessage:
        item = ToolCallItem(
            id=item_id, name=call.name, arguments=call.arguments, status="failed", result=message
        )
        self.emitter.emit(ItemStarted(item=item))
        self.emitter.emit(ItemCompleted(item=item))
        return ToolResultMessage(call_id=call.id, name=call.name, content=message, is_error=True)


def _parse_arguments(raw: str) -> dict[str, Any]:
    value = json.loads(raw or "{}")
    if not isinstance(value, dict):
        raise ValueError("arguments must be a JSON object")
    return value


def _shown_arguments(tool: Tool, arguments: dict[str, Any]) -> Mapping[str, Any]:
    """The arguments an item shows; a `write_stdin` call shows the command of its session as `cmd`."""
    if isinstance(tool, WriteStdinTool):
        command = tool.command_for(arguments) or f"write_stdin {arguments.get('session_id', '')}"
        return {**arguments, "cmd": command}
    return arguments


def _item(
    call: ToolCall,
    item_id: str,
    arguments: Mapping[str, Any],
    *,
    status: ItemStatus,
    text: str = "",
    outcome: ToolOutcome | None = None,
) -> Item:
    """The event item that shows this call: a command, a file change, or a generic tool call."""
    if call.name in _COMMAND_ITEM_TOOLS:
        return CommandExecutionItem(
            id=item_id,
            command=str(arguments.get("cmd", "")),
            status=status,
            aggregated_output=text,
            exit_code=outcome.exit_code if outcome else None,
        )
    if call.name in EDIT_TOOLS:
        changes = outcome.changes if outcome is not None else ()
        return FileChangeItem(id=item_id, changes=changes, status=status)
    return ToolCallItem(
        id=item_id,
        name=call.name,
        arguments=call.arguments,
        status=status,
        result=text or None,
    )
