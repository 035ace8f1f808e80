"""An "ask" approval as `session/request_permission`, and the editor's choice as an `ApprovalAnswer`."""

from __future__ import annotations

from acp.schema import (
    AllowedOutcome,
    DeniedOutcome,
    PermissionOption,
    ToolCallUpdate,
)

from vtcode.protocol.events import ApprovalRequested
from vtcode.protocol.ops import ApprovalAnswer

ALLOW_ONCE = "allow-once"
ALLOW_ALWAYS = "allow-always"
REJECT = "reject"


def options(request: ApprovalRequested) -> list[PermissionOption]:
    """Allow once, allow always (this command prefix, or this tool, for the session), reject."""
    always = (
        f"Always allow `{request.session_prefix}` commands"
        if request.session_prefix
        else f"Always allow {request.tool}"
    )
    if request.tool == "web_fetch" and request.session_prefix:
        always = f"Always allow fetches from {request.session_prefix}"
    return [
        PermissionOption(option_id=ALLOW_ONCE, name="Allow once", kind="allow_once"),
        PermissionOption(option_id=ALLOW_ALWAYS, name=always, kind="allow_always"),
        PermissionOption(option_id=REJECT, name="Reject", kind="reject_once"),
    ]


def tool_call(request: ApprovalRequested) -> ToolCallUpdate:
    """The call the permission is about (its `tool_call` was sent when it started)."""
    return ToolCallUpdate(
        tool_call_id=request.item_id, title=request.display or request.tool, status="pending"
    )


def answer(
    request: ApprovalRequested, outcome: AllowedOutcome | DeniedOutcome | None, client: str
) -> ApprovalAnswer:
    """The approval answer for the editor's outcome; cancelled, unknown or missing counts as reject."""
    if isinstance(outcome, AllowedOutcome):
        if outcome.option_id == ALLOW_ONCE:
            return ApprovalAnswer(request.request_id, "allow_once")
        if outcome.option_id == ALLOW_ALWAYS:
            if request.session_prefix:
                return ApprovalAnswer(request.request_id, "allow_prefix")
            return ApprovalAnswer(request.request_id, "allow_tool")
        if outcome.option_id == REJECT:
            return ApprovalAnswer(request.request_id, "deny", f"the user rejected this call in {client}")
    return ApprovalAnswer(request.request_id, "deny", f"the permission request was cancelled in {client}")
