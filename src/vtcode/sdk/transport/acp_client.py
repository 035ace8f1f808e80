"""The client side of ACP for the subprocess transport: permission requests and the program's own tools.

`session/request_permission` is answered with the approval answer the SDK's permission order gave
(`sdk.permission`): the session sees the `approval.requested` event first (it comes in order with the
other events), answers it as in-process, and the answer completes the request, the exact decision and
reason in `_meta.vtcode`. `_vtcode/tool_call` runs a `@vt.tool` function here, in the program's process,
`_vtcode/hook` one of its Python hooks (`transport.acp_hooks`), `_vtcode/model` a request to its
`model_client` (`transport.acp_model`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec
from acp import RequestError
from acp.schema import (
    AllowedOutcome,
    DeniedOutcome,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallUpdate,
)

from vtcode.protocol.acp_messages import ApprovalMeta, CallCancel, StreamRef, ToolCallParams, ToolResult
from vtcode.protocol.acp_methods import (
    HOOK,
    HOOK_CANCEL,
    META_KEY,
    MODEL,
    MODEL_CANCEL,
    MODEL_NEXT,
    TOOL_CALL,
    TOOL_CANCEL,
)
from vtcode.protocol.events import ApprovalRequested, ApprovalResolved, Event
from vtcode.protocol.ops import ApprovalAnswer
from vtcode.sdk.tool import FunctionTool, ToolContext
from vtcode.sdk.transport.acp_hooks import HookServer
from vtcode.sdk.transport.acp_model import ModelServer
from vtcode.sdk.transport.running_calls import RunningCalls

log = logging.getLogger(__name__)

_KIND_OF = {
    "allow_once": "allow_once",
    "allow_tool": "allow_always",
    "allow_prefix": "allow_always",
    "deny": "reject_once",
}


class SdkClient:
    """What the `vtcode acp` child may ask of the program."""

    def __init__(
        self,
        tools: Sequence[FunctionTool],
        workspace: Path,
        *,
        hooks: HookServer | None = None,
        model: ModelServer | None = None,
    ) -> None:
        self._tools = {t.spec.name: t for t in tools}
        self._hooks = hooks
        self._model = model
        self._workspace = workspace
        # approval request id by the tool call (item) it is about, learnt from the events.
        self._requests: dict[str, str] = {}
        self._answers: dict[str, asyncio.Future[ApprovalAnswer | None]] = {}
        self._calls: RunningCalls[tuple[str, bool]] = RunningCalls()

    # -- fed by the transport --------------------------------------------------------------------------

    def saw(self, event: Event) -> None:
        """Follow the approvals in the event stream (called in order, before any request about them)."""
        match event:
            case ApprovalRequested(request_id=request_id, item_id=item_id):
                self._requests[item_id] = request_id
            case ApprovalResolved(request_id=request_id):
                # Settled otherwise (a session grant, an interrupt): a request still open gets no choice.
                future = self._answers.get(request_id)
                if future is not None and not future.done():
                    future.set_result(None)

    def answer(self, op: ApprovalAnswer) -> None:
        """The session's answer to one approval request."""
        future = self._future(op.request_id)
        if not future.done():
            future.set_result(op)

    def cancel_all(self) -> None:
        """The connection is closing: open requests get no choice, running tool calls stop."""
        for future in self._answers.values():
            if not future.done():
                future.set_result(None)
        self._calls.cancel_all()
        if self._hooks is not None:
            self._hooks.cancel_all()
        if self._model is not None:
            self._model.cancel_all()

    # -- ACP client methods ------------------------------------------------------------------------------

    async def request_permission(
        self, session_id: str, tool_call: ToolCallUpdate, options: list[PermissionOption], **kwargs: Any
    ) -> RequestPermissionResponse:
        """Wait for the session's answer to the approval this call is about."""
        request_id = self._requests.pop(tool_call.tool_call_id, None)
        if request_id is None:
            log.warning("a permission request for an unknown call %s was refused", tool_call.tool_call_id)
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        future = self._future(request_id)
        try:
            answer = await future
        finally:
            self._answers.pop(request_id, None)
        if answer is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        kind = _KIND_OF[answer.decision]
        option = next((o.option_id for o in options if o.kind == kind), None)
        outcome: AllowedOutcome | DeniedOutcome = (
            AllowedOutcome(outcome="selected", option_id=option)
            if option is not None
            else DeniedOutcome(outcome="cancelled")
        )
        exact = ApprovalMeta(answer.decision, answer.reason, answer.updated_arguments)
        meta = {META_KEY: msgspec.to_builtins(exact)}
        return RequestPermissionResponse(outcome=outcome, field_meta=meta)

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        """Editor updates (a loaded session's history replay): the typed events carry all of it."""

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """`_vtcode/tool_call`: run one of the program's tools; `_vtcode/hook`: one of its hooks."""
        if method == HOOK and self._hooks is not None:
            return await self._hooks.call(params)
        if method in (MODEL, MODEL_NEXT) and self._model is not None:
            return await self._model.answer(method, params)
        if method != TOOL_CALL:
            raise RequestError.method_not_found(f"_{method}")
        return await self._tool_call(params)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        """`_vtcode/tool_cancel` / `_vtcode/hook_cancel` / `_vtcode/model_cancel`: the turn stopped
        waiting for a call (or reading a stream)."""
        try:
            stopped = msgspec.convert(params, StreamRef if method == MODEL_CANCEL else CallCancel)
        except msgspec.ValidationError:
            log.debug("an unreadable _%s was ignored", method)
            return
        match stopped:
            case StreamRef(stream_id=stream_id) if self._model is not None:
                self._model.cancel(stream_id)
            case CallCancel(call_id=call_id) if method == HOOK_CANCEL and self._hooks is not None:
                self._hooks.cancel(call_id)
            case CallCancel(call_id=call_id) if method == TOOL_CANCEL:
                self._calls.withdraw(call_id)

    # -- inside ----------------------------------------------------------------------------------------

    def _future(self, request_id: str) -> asyncio.Future[ApprovalAnswer | None]:
        future = self._answers.get(request_id)
        if future is None:
            future = self._answers[request_id] = asyncio.get_running_loop().create_future()
        return future

    async def _tool_call(self, params: Mapping[str, Any]) -> dict[str, Any]:
        try:
            call: ToolCallParams | None = msgspec.convert(params, ToolCallParams)
        except msgspec.ValidationError:
            call = None
        tool = self._tools.get(call.name) if call is not None else None
        if call is None or tool is None:
            name = params.get("name")
            raise RequestError.invalid_params({"name": name, "details": "no such tool, or bad arguments"})
        context = ToolContext(session_id=call.session_id, workspace=self._workspace)
        text, is_error = await self._calls.run(
            call.call_id,
            tool.result(call.arguments, context),
            lambda: (f"{call.name} was cancelled", True),
            # A sync function runs in a thread nothing cancels: it reads the withdrawal in its context.
            on_withdraw=context.cancelled.set,
        )
        result: dict[str, Any] = msgspec.to_builtins(ToolResult(text, is_error))
        return result
