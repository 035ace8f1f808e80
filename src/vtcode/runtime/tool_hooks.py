"""Hooks around one tool call: what PreToolUse, PermissionRequest, PostToolUse and Notification get and
how their answers change the call (reference extensibility.md section 11.1).

A hook's allow skips the user's prompt but never a deny (rules, read-only mode); the sandbox and the
tools' own path checks run after any hook. A hook's `updatedInput` must fit the tool's schema and is
approved again as the call it now is. Deny reasons reach the model verbatim, never joined with the input.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from typing import Any

import msgspec

from vtcode.core.approvals import Decision
from vtcode.core.hooks.input_check import input_problem
from vtcode.core.hooks.matching import TOOL_ALIASES
from vtcode.core.hooks.model import HookEvent
from vtcode.core.hooks.outcome import Combined
from vtcode.protocol.messages import ToolCall
from vtcode.runtime.hook_dispatch import HookDispatch
from vtcode.tools.base import CallDescription, Tool, ToolOutcome

# Where a tool keeps the text Claude Code hooks read as `tool_input.command`.
COMMAND_KEYS = {"exec_command": "cmd", "apply_patch": "patch"}
# Tools whose file Claude Code hooks read as `tool_input.file_path` (absolute, as Claude Code gives it):
# the formatter hook of its docs (`jq -r .tool_input.file_path | xargs prettier --write`) relies on it.
_FILE_TOOLS = frozenset({"apply_patch", "write_file", "read_file"})
# The keys `_payload` adds to a call's arguments for Claude Code and Codex hooks.
_ADDED_KEYS = ("command", "file_paths", "file_path")


class ToolHooks:
    """The tool events of one session's hooks."""

    def __init__(self, dispatch: HookDispatch) -> None:
        self.dispatch = dispatch
        self._background: set[asyncio.Task[Combined]] = set()

    async def pre_tool_use(
        self, tool: Tool, call: ToolCall, arguments: dict[str, Any], described: CallDescription
    ) -> Combined:
        """Run PreToolUse; an `updatedInput` that does not fit the tool's schema blocks the call."""
        combined = await self.dispatch.fire(
            "PreToolUse", self._payload(call, arguments, described), tool=call.name
        )
        updated = combined.updated_input
        if updated is None or combined.blocked:
            return combined
        updated = _native_input(call.name, arguments, updated, tool.spec.parameters)
        problem = input_problem(tool.spec.parameters, updated)
        if problem is None:
            return dataclasses.replace(combined, updated_input=updated)
        reason = (
            f"a PreToolUse hook changed the input of `{call.name}` into one the tool does not accept: "
            f"{problem}"
        )
        return dataclasses.replace(combined, decision="deny", reason=reason, updated_input=None)

    def after_pre_tool_use(self, decision: Decision, pre: Combined | None) -> Decision:
        """The policy's decision adjusted by PreToolUse: ask asks, allow skips a prompt, deny stays."""
        if pre is None or pre.decision is None or decision.action == "deny":
            return decision
        why = f": {pre.reason}" if pre.reason else ""
        if pre.decision == "ask":
            return Decision(
                "ask",
                f"a PreToolUse hook asks for the user's approval{why}",
                headless_reason=f"a PreToolUse hook asks for the user's approval{why}; nobody can "
                "approve it in a headless run",
            )
        if pre.decision == "allow" and decision.action == "ask" and pre.updated_input is None:
            return Decision("allow", f"allowed by a PreToolUse hook{why}")
        return decision

    async def permission_request(
        self, tool: Tool, call: ToolCall, arguments: dict[str, Any], decision: Decision
    ) -> Decision:
        """Let PermissionRequest hooks answer an "ask" before a person is asked (or a headless denial)."""
        if not self.dispatch.active("PermissionRequest"):
            return decision
        described = tool.describe(arguments)
        payload = {**self._payload(call, arguments, described), "reason": decision.reason}
        combined = await self.dispatch.fire("PermissionRequest", payload, tool=call.name)
        why = f": {combined.reason}" if combined.reason else ""
        if combined.decision == "deny":
            return Decision("deny", combined.reason or "denied by a PermissionRequest hook")
        if combined.decision == "allow":
            return Decision("allow", f"allowed by a PermissionRequest hook{why}")
        return decision

    def notify_permission_prompt(self, tool: str, display: str) -> None:
        """Notification hooks for a prompt that waits for the user (in the background: never delays it)."""
        if not self.dispatch.active("Notification"):
            return
        payload = {
            "message": f"vtcode needs your permission to use {tool}: {display}",
            "title": "vtcode",
            "notification_type": "permission_prompt",
        }
        task = asyncio.ensure_future(self.dispatch.fire("Notification", payload, subject="permission_prompt"))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def post_tool_use(
        self,
        tool: Tool,
        call: ToolCall,
        arguments: dict[str, Any],
        outcome: ToolOutcome,
        pre: Combined | None = None,
    ) -> ToolOutcome:
        """PostToolUse (or PostToolUseFailure); what hooks say (and PreToolUse's `additionalContext`) is
        added to the result the model reads."""
        event: HookEvent = "PostToolUseFailure" if outcome.is_error else "PostToolUse"
        added = [self.dispatch.model_context(pre, "PreToolUse")] if pre is not None else []
        result = outcome.for_model
        if self.dispatch.active(event):
            post = await self._post(event, tool, call, arguments, outcome)
            added.append(self.dispatch.model_context(post, event))
            # `updatedToolOutput`: the model reads the hook's version (a redaction), the user the real one.
            result = result if post.updated_output is None else post.updated_output
        text = "\n\n".join(filter(None, added))
        if not text and result == outcome.for_model:
            return outcome
        return msgspec.structs.replace(outcome, model_content=f"{result}\n\n{text}" if text else result)

    async def _post(
        self, event: HookEvent, tool: Tool, call: ToolCall, arguments: dict[str, Any], outcome: ToolOutcome
    ) -> Combined:
        payload = {
            **self._payload(call, arguments, tool.describe(arguments)),
            "tool_response": {
                "content": outcome.content,
                "is_error": outcome.is_error,
                "exit_code": outcome.exit_code,
            },
        }
        if outcome.is_error:
            payload["error"] = outcome.content
        return await self.dispatch.fire(event, payload, tool=call.name)

    def _payload(
        self, call: ToolCall, arguments: dict[str, Any], described: CallDescription
    ) -> dict[str, Any]:
        tool_input = dict(arguments)
        key = COMMAND_KEYS.get(call.name)
        if key is not None and isinstance(arguments.get(key), str):
            tool_input["command"] = arguments[key]
        if call.name == "apply_patch":
            tool_input["file_paths"] = list(described.paths)
        if call.name in _FILE_TOOLS and described.paths and "file_path" not in tool_input:
            tool_input["file_path"] = os.path.join(self.dispatch.workspace, described.paths[0])
        return {
            "tool_name": call.name,
            "tool_name_aliases": list(TOOL_ALIASES.get(call.name, ())),
            "tool_input": tool_input,
            "tool_use_id": call.id,
        }


def tool_arguments(name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    """A hook input's `tool_input` less the keys added for Claude Code hooks: the call's own arguments."""
    added = _ADDED_KEYS if name in COMMAND_KEYS or name in _FILE_TOOLS else ()
    return {key: value for key, value in tool_input.items() if key not in added}


def _native_input(
    name: str, original: dict[str, Any], updated: dict[str, Any], schema: dict[str, Any]
) -> dict[str, Any]:
    """A hook's new input in the tool's own keys: Claude Code hooks change `command`, ours `cmd`.

    The keys added for hooks (`command`, `file_paths`) are dropped unless the tool has such a parameter.
    """
    result = dict(updated)
    key = COMMAND_KEYS.get(name)
    command = result.get("command")
    if key is not None and isinstance(command, str) and command != original.get(key):
        result[key] = command
    known = schema.get("properties") or {}
    for added in _ADDED_KEYS:
        if added not in known:
            result.pop(added, None)
    return result
