"""Run the tool calls of one model reply: approval, execution, items, exactly one result per call.

Everything about a tool comes from the tool itself (`kind`, `describe`): its kind decides approvals and
whether calls may run in parallel, its description gives the item's display form, the approval subject
and the touched paths, which are recorded on the result message (so they survive resumes).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from vtcode.core.approvals import (
    ApprovalPolicy,
    Decision,
    Grant,
    SessionGrants,
    decide,
    resolve_headless,
    session_prefix,
)
from vtcode.core.web_rules import WEB_FETCH, session_grant
from vtcode.exec.progress import ExecProgress, ProgressSink
from vtcode.protocol.events import (
    ApprovalRequested,
    ApprovalResolved,
    CommandExecutionItem,
    FileChange,
    ItemCompleted,
    ItemStarted,
    ItemStatus,
    ItemUpdated,
    ToolCallItem,
)
from vtcode.protocol.messages import Message, MessageMeta, ToolCall, ToolResultMessage
from vtcode.protocol.ops import ApprovalAnswer
from vtcode.runtime.approval_port import ApprovalPort, unfinished_result
from vtcode.runtime.approval_rewrite import Rewrites
from vtcode.runtime.call_items import bounded_change, call_item
from vtcode.runtime.editor_buffers import follow_edits
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.policy_shadow import ShadowWatch
from vtcode.tools.base import (
    CallDescription,
    NotesUnfinishedCalls,
    PreviewsChanges,
    Tool,
    ToolContext,
    ToolOutcome,
    storable,
)

if TYPE_CHECKING:
    # Annotations only: a session without hooks never loads the hook machinery.
    from vtcode.core.hooks.outcome import Combined
    from vtcode.runtime.checkpoints import Checkpointer
    from vtcode.runtime.tool_hooks import ToolHooks

log = logging.getLogger(__name__)

Commit = Callable[[Sequence[Message]], None]

# Characters of live output carried by each `item.updated` (the tail of what the command printed).
LIVE_OUTPUT_CHARS = 8192
INTERRUPTED = "interrupted by the user before this call finished"
INTERRUPTED_APPROVAL = "the user interrupted the turn instead of approving this call"


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
        approvals: ApprovalPort | None = None,
        hooks: ToolHooks | None = None,
    ) -> None:
        self.tools: Mapping[str, Tool] = {t.spec.name: t for t in tools}
        self.context = context
        self.policy = policy
        self.emitter = emitter
        self.on_touched = on_touched
        # Without a port nobody can answer: the policy must then be headless (asks become denials).
        self.approvals = approvals
        self.grants = SessionGrants()
        # Lifecycle hooks around every call (PreToolUse, PermissionRequest, PostToolUse[Failure]).
        self.hooks = hooks
        # Every write of every tool passes here: checkpoints keep what it changed (None: off).
        self.checkpoints: Checkpointer | None = None
        self.shadows = ShadowWatch()  # sees each call before approval (reports for permission callbacks)
        self.rewrites = Rewrites(lambda: self.policy)  # arguments an approval substituted, until run
        self.confine_user_commands = False  # `[sandbox] confine_user_commands`: `!cmd` confined too

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
                results.get(c.id) or unfinished_result(c, self._unfinished(c, reason), self.approvals)
                for c in calls
            ]
            commit(ordered)
            raise
        ordered = [results[c.id] for c in calls]
        commit(ordered)
        return ordered

    async def run_call(self, call: ToolCall, *, user: bool = False) -> ToolResultMessage:
        """Run one call outside a model reply (a command's shell block): approval, hooks, events.

        `user`: a command the user typed (`!cmd`), run on user authority: no approval, no tool hooks.
        """
        return await self._run_one(call, user=user)

    def refuse(self, calls: Sequence[ToolCall], reason: str, commit: Commit) -> list[ToolResultMessage]:
        """Answer every call with `reason` without running it (items shown as declined)."""
        results: list[ToolResultMessage] = []
        for call in calls:
            item_id = self.emitter.new_item_id()
            item = ToolCallItem(id=item_id, name=call.name, arguments=call.arguments, status="declined")
            self.emitter.emit(ItemStarted(item=item))
            self.emitter.emit(ItemCompleted(item=msgspec.structs.replace(item, result=reason)))
            content = f"not run: {reason}"
            results.append(ToolResultMessage(call_id=call.id, name=call.name, content=content, is_error=True))
        commit(results)
        return results

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
            if self._is_read(call) and batches and all(self._is_read(c) for c in batches[-1]):
                batches[-1].append(call)
            else:
                batches.append([call])
        return batches

    def _unfinished(self, call: ToolCall, reason: str) -> str:
        """`reason`, and what the tool says of its unfinished call (`task`: the subagent to continue)."""
        tool = self.tools.get(call.name)
        said = tool.unfinished_note(call.id) if isinstance(tool, NotesUnfinishedCalls) else None
        return f"{reason}\n\n{said}" if said else reason

    def _is_read(self, call: ToolCall) -> bool:
        tool = self.tools.get(call.name)
        return tool is not None and tool.kind == "read"

    async def _run_one(self, call: ToolCall, *, user: bool = False) -> ToolResultMessage:
        item_id = self.emitter.new_item_id()
        try:
            arguments = _parse_arguments(call.arguments)
        except ValueError as exc:
            return self._error(call, item_id, f"invalid JSON arguments for {call.name}: {exc}")
        tool = self.tools.get(call.name)
        if tool is None:
            known = ", ".join(sorted(self.tools))
            return self._error(call, item_id, f"unknown tool {call.name!r}; available: {known}")
        described = tool.describe(arguments)
        started = call_item(tool, call, item_id, described, status="in_progress")
        self.emitter.emit(ItemStarted(item=started))
        pre: Combined | None = None
        if not user and self.hooks is not None and self.hooks.dispatch.active("PreToolUse"):
            try:
                pre = await self.hooks.pre_tool_use(tool, call, arguments, described)
            except asyncio.CancelledError:
                declined = call_item(tool, call, item_id, described, status="declined", text=INTERRUPTED)
                self.emitter.emit(ItemCompleted(item=declined))
                raise
            if pre.updated_input is not None and not pre.blocked:
                # Checked by `pre_tool_use`; the new input is described, approved and run instead.
                arguments = pre.updated_input
                described = tool.describe(arguments)
                self.emitter.emit(
                    ItemUpdated(item=call_item(tool, call, item_id, described, status="in_progress"))
                )
        if user:
            decision = Decision("allow", "typed by the user")
        elif pre is not None and pre.blocked:
            decision = Decision("deny", pre.reason)
        else:
            decision = await self._approve(tool, call, item_id, described, pre=pre, arguments=arguments)
        if (rewritten := self.rewrites.take(call.id)) is not None:  # only kept for allowed calls
            arguments, described = rewritten
            self.emitter.emit(
                ItemUpdated(item=call_item(tool, call, item_id, described, status="in_progress"))
            )
        if decision.action != "allow":
            declined = call_item(tool, call, item_id, described, status="declined", text=decision.reason)
            self.emitter.emit(ItemCompleted(item=declined))
            content = f"not run: {decision.reason}"
            return ToolResultMessage(call_id=call.id, name=call.name, content=content, is_error=True)
        live = self._live_output(item_id) if tool.kind in ("command", "session_input") else None
        unconfined = user and not self.confine_user_commands
        context = msgspec.structs.replace(
            self.context,
            progress=live,
            item_id=item_id,
            call_id=call.id,
            unconfined=unconfined,
            typed_by_user=user,
        )
        if self.checkpoints is not None:
            await self.checkpoints.before_call(tool, call, described)
        try:
            outcome = await tool.run(arguments, context)
        except asyncio.CancelledError:
            failed = call_item(tool, call, item_id, described, status="failed", text=INTERRUPTED)
            self.emitter.emit(ItemCompleted(item=failed))
            if self.checkpoints is not None:
                # What an interrupted command changed is still this call's doing.
                interrupted = ToolOutcome(content=INTERRUPTED, is_error=True)
                with contextlib.suppress(Exception):
                    await self.checkpoints.after_call(tool, call, described, interrupted)
            raise
        except Exception as exc:  # a tool bug must not end the session; the model sees the failure
            log.debug("tool %s raised", call.name, exc_info=True)
            outcome = ToolOutcome(content=f"{call.name} failed: {exc}", is_error=True)
        outcome = storable(outcome)
        if self.checkpoints is not None:
            await self.checkpoints.after_call(tool, call, described, outcome)
        if self.hooks is not None and not user:
            outcome = await self.hooks.post_tool_use(tool, call, arguments, outcome, pre)
        if outcome.touched_paths and self.on_touched is not None:
            self.on_touched(outcome.touched_paths)
        if outcome.changes and self.context.buffers is not None:
            # Before the result goes back: the model's next read through the editor sees the edit.
            await follow_edits(self.context.buffers, self.context.workspace, outcome.changes)
        status: ItemStatus = "failed" if outcome.is_error else "completed"
        done = call_item(tool, call, item_id, described, status=status, text=outcome.content, outcome=outcome)
        self.emitter.emit(ItemCompleted(item=done))
        return ToolResultMessage(
            call_id=call.id,
            name=call.name,
            content=outcome.for_model,
            is_error=outcome.is_error,
            meta=MessageMeta(paths=outcome.touched_paths),
            images=outcome.images,
        )

    async def _approve(
        self,
        tool: Tool,
        call: ToolCall,
        item_id: str,
        described: CallDescription,
        *,
        pre: Combined | None = None,
        arguments: dict[str, Any] | None = None,
    ) -> Decision:
        """The policy's decision; an "ask" is put to the user through the approval port and awaited.

        With hooks: a PreToolUse allow turns an "ask" into "allow" (never a deny rule's or mode's
        "deny"), unless it also changed the input, which is then approved like any call; a hook's
        "ask" asks even where the policy allows; PermissionRequest hooks answer an "ask" first.
        """
        self.shadows.observe(self.policy, tool.kind, call.name, described.subject)
        hooks = self.hooks
        if hooks is None or (pre is None and not hooks.dispatch.active("PermissionRequest")):
            decision = decide(self.policy, tool.kind, described.subject, tool=call.name, grants=self.grants)
        else:
            policy = msgspec.structs.replace(self.policy, headless=False)
            decision = decide(policy, tool.kind, described.subject, tool=call.name, grants=self.grants)
            decision = hooks.after_pre_tool_use(decision, pre)
            if decision.action == "ask":
                decision = await hooks.permission_request(tool, call, arguments or {}, decision)
            if decision.action == "ask" and self.policy.headless:
                decision = resolve_headless(decision)
        if decision.action != "ask":
            return decision
        if hooks is not None:
            hooks.notify_permission_prompt(call.name, described.display)
        if self.approvals is None:
            # Defensive: a non-headless policy without a port cannot ask anyone.
            return Decision("deny", decision.headless_reason or decision.reason)
        prefix = session_prefix(described.subject) if tool.kind == "command" else ""
        if call.name == WEB_FETCH:
            prefix = described.subject  # "allow for this session" covers the domain
        request_id = f"approval_{item_id}"
        changes = await self._preview(tool, arguments or {})
        self.emitter.emit(
            ApprovalRequested(
                request_id=request_id,
                item_id=item_id,
                tool=call.name,
                kind=tool.kind,
                display=described.display,
                reason=decision.reason,
                session_prefix=prefix,
                changes=changes,
                arguments=json.dumps(arguments) if arguments is not None else call.arguments,
            )
        )
        try:
            answer = await self.approvals.ask(request_id, call.id)
        except asyncio.CancelledError:
            self.emitter.emit(
                ApprovalResolved(request_id=request_id, decision="deny", reason=INTERRUPTED_APPROVAL)
            )
            declined = call_item(tool, call, item_id, described, status="declined", text=INTERRUPTED_APPROVAL)
            self.emitter.emit(ItemCompleted(item=declined))
            raise
        self.emitter.emit(
            ApprovalResolved(request_id=request_id, decision=answer.decision, reason=answer.reason)
        )
        return self.rewrites.settle(self._granted(answer, call.name, prefix), answer, tool, call.id)

    def _granted(self, answer: ApprovalAnswer, tool: str, prefix: str) -> Decision:
        match answer.decision:
            case "allow_once":
                return Decision("allow", "approved by the user")
            case "allow_tool":
                self._grant(Grant("tool", tool))
                return Decision("allow", f"`{tool}` allowed by the user for this session")
            case "allow_prefix" if tool == WEB_FETCH and prefix:
                self._grant(session_grant(prefix))
                return Decision("allow", f"fetches from {prefix} allowed by the user for this session")
            case "allow_prefix":
                if prefix:
                    self._grant(Grant("prefix", prefix))
                return Decision("allow", f"commands starting with `{prefix}` allowed by the user")
            case "deny":
                reason = answer.reason or "the user declined this call"
                return Decision("deny", f"{reason}; do not retry it unchanged")

    async def _preview(self, tool: Tool, arguments: dict[str, Any]) -> tuple[FileChange, ...]:
        """What an edit would change, for the person asked (diffs cut by `bounded_change`)."""
        if not isinstance(tool, PreviewsChanges):
            return ()
        try:
            changes = await asyncio.to_thread(
                tool.preview, arguments, self.context.workspace, self.context.extra_roots
            )
        except Exception:  # a preview is a courtesy: the question is asked without it
            log.debug("no preview for %s", tool.spec.name, exc_info=True)
            return ()
        return tuple(bounded_change(change) for change in changes)

    def _grant(self, grant: Grant) -> None:
        """Remember a session grant and say so: a grant nobody sees cannot be taken back."""
        self.grants = self.grants.with_grant(grant)
        self.emitter.warn(
            f"allowed for the rest of this session: {grant.describe()} "
            "(/permissions lists and revokes grants)"
        )

    def revoke(self, grant: Grant) -> bool:
        """Take back a session grant; False when it was not given."""
        if grant not in self.grants.listed():
            return False
        self.grants = self.grants.without(grant)
        return True

    def _live_output(self, item_id: str) -> ProgressSink:
        """Turn a running command's output into `item.updated` events for its item."""
        shown = ""

        def update(progress: ExecProgress) -> None:
            nonlocal shown
            shown = (shown + progress.text)[-LIVE_OUTPUT_CHARS:]
            item = CommandExecutionItem(id=item_id, command=progress.command, aggregated_output=shown)
            self.emitter.emit(ItemUpdated(item=item))

        return update

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
