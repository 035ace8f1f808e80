"""The messages of vtcode's ACP extensions, one struct each: the `vtcode acp` agent (`acp/`) and the
SDK's subprocess transport (`sdk/transport/`) encode and decode them from the two ends, so a field is
named once (`protocol.acp_methods` names the methods; the hook messages carry core's hook types, so
they stand in `core.hooks.acp_messages`).

Optional fields have defaults: a peer that leaves one out is still read.
"""

from __future__ import annotations

from typing import Any

import msgspec

from vtcode.protocol.events import ApprovalDecision, Event
from vtcode.protocol.model import ModelRequest, StreamEvent, ToolKind
from vtcode.protocol.ops import Op

# -- initialize: `clientCapabilities._meta.vtcode` ----------------------------------------------------------


class ClientMeta(msgspec.Struct, frozen=True):
    """What a client asks of the agent as a whole: `events`, the typed event stream (`_vtcode/event`) in
    place of the `session/update` translations."""

    events: bool = False


# -- session/new, session/load: `_meta.vtcode` ----------------------------------------------------------


class DeclaredTool(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """One tool the client declares and runs itself (`acp.client_tools`)."""

    name: str
    description: str = ""
    parameters: dict[str, Any]
    # "read" tools are never asked about; "external" ones follow the approval rules.
    kind: ToolKind = "external"
    needs_approval: bool = False


class SessionMeta(msgspec.Struct, frozen=True, rename="camel", forbid_unknown_fields=True):
    """What a client asks of one session in `_meta.vtcode` (`acp.sdk_extension`)."""

    tools: tuple[DeclaredTool, ...] = ()
    ephemeral: bool = False
    output_schema: dict[str, Any] | None = None
    # Paused approvals (`acp.client_pause`): run decided ones; also pause what would be asked.
    paused_calls: bool = False
    pause: bool = False
    # The client answers approvals with a callback: tell it (`policy.shadowed`) what rules settle first.
    report_shadowed: bool = False
    # Python hooks the client runs, each a `core.hooks.acp_messages.DeclaredHook` (`acp.client_hooks`).
    hooks: tuple[dict[str, Any], ...] = ()
    # The provider name of the client's own model client, which answers every model request.
    model: str | None = None


class OpenedMeta(msgspec.Struct, frozen=True, rename="camel"):
    """What the answer to `session/new` / `session/load` tells the client in `_meta.vtcode`."""

    # The folder of the session's paused calls (`acp.client_pause`); None: a new session has none yet.
    paused_calls_dir: str | None = None


# -- session/prompt: `_meta.vtcode` -------------------------------------------------------------------------


class PromptMeta(msgspec.Struct, frozen=True, rename="camel"):
    """What a client asks of one prompt's turn."""

    # The id of the prompt's input, so the client knows its own `intent.applied` events ("": the
    # agent makes one).
    intent_id: str = ""
    # The schema this turn's answer is held to (None: free text; left out: unchanged).
    output_schema: dict[str, Any] | msgspec.UnsetType | None = msgspec.UNSET


# -- session/request_permission: the answer's `_meta.vtcode` ---------------------------------------------


class ApprovalMeta(msgspec.Struct, frozen=True, rename="camel"):
    """The exact approval answer (`protocol.ops.ApprovalAnswer`), beside the option ACP can express: allow
    once / this tool / this prefix, or deny with the reason the model reads; an allow may run the call
    with other arguments."""

    decision: ApprovalDecision
    reason: str = ""
    updated_arguments: dict[str, Any] | None = None


# -- _vtcode/op -------------------------------------------------------------------------------------------


class OpParams(msgspec.Struct, frozen=True, rename="camel"):
    """`_vtcode/op`: a runtime operation ACP has no method for (steer, compact, pause, ...)."""

    session_id: str
    op: Op


class UsageParams(msgspec.Struct, frozen=True, rename="camel"):
    """`_vtcode/usage`: the session whose account (`protocol.usage.UsageReport`) is asked for."""

    session_id: str


# -- _vtcode/tool_call, _vtcode/tool_cancel, _vtcode/hook_cancel ------------------------------------------


class ToolCallParams(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """`_vtcode/tool_call`: run one of the client's tools."""

    session_id: str = ""
    call_id: str = ""
    name: str
    arguments: dict[str, Any]


class ToolResult(msgspec.Struct, frozen=True, rename="camel"):
    """The client's answer to a `_vtcode/tool_call`: the function's rendered result."""

    content: str
    is_error: bool = False


class CallCancel(msgspec.Struct, frozen=True, rename="camel"):
    """`_vtcode/tool_cancel` / `_vtcode/hook_cancel`: the turn stopped waiting for this call."""

    session_id: str = ""
    call_id: str = ""


# -- _vtcode/model, _vtcode/model_next, _vtcode/model_cancel ----------------------------------------------


class ModelCall(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """`_vtcode/model`: start one stream of the client's model."""

    stream_id: str = ""
    request: ModelRequest


class StreamRef(msgspec.Struct, frozen=True, rename="camel"):
    """`_vtcode/model_next` / `_vtcode/model_cancel`: the stream to continue or withdraw."""

    stream_id: str = ""


class ModelBatch(msgspec.Struct, frozen=True):
    """Stream events the client's model produced since the last batch; `error` (`protocol.error_fields`)
    ends the stream failed."""

    events: list[StreamEvent] = []
    done: bool = False
    error: dict[str, Any] | None = None


# -- _vtcode/event ------------------------------------------------------------------------------------------


# What an event does not come with is left out (most events come alone).
class EventParams(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """One `_vtcode/event` notification's parameters: one event of `vtcode exec --json`, and what comes
    with it."""

    session_id: str
    event: Event
    # What a `turn.failed` cannot say about a provider error (`protocol.error_fields`).
    cause: dict[str, Any] | None = None
    # With `approval="pause"`: the child's record of the call an `approval.requested` asks about
    # (`acp.client_pause`), the folder it is in, or why it could not be recorded.
    paused: dict[str, Any] | None = None
    paused_calls_dir: str | None = None
    pause_error: str | None = None
