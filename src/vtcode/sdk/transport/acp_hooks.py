"""The program's Python hooks for a session in a `vtcode acp` child: declared at open, run here on call.

The child runs them in its one hook dispatcher and turn loop as proxies (`acp.client_hooks`): each call
is a `_vtcode/hook` request answered here with the callback's decision, or with what it raised (the
child then fails closed, as in-process). The callbacks and their typed inputs are the in-process ones
(`sdk.tool_hooks`, `sdk.hooks`); timeouts are the child's, which withdraws a call it stopped waiting
for with `_vtcode/hook_cancel`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Mapping
from typing import Any

import msgspec
from acp import RequestError

from vtcode.protocol.error_fields import error_from_fields
from vtcode.runtime.hooks import AfterToolBatch, BeforeRequest, TurnEnd
from vtcode.sdk import hooks as observers
from vtcode.sdk.hooks import Hooks
from vtcode.sdk.tool_hooks import callable_hooks, hook_name

log = logging.getLogger(__name__)

Call = Callable[[Any], Any]


class HookServer:
    """Runs one session's Python hooks for its child."""

    def __init__(self, hooks: Hooks, session_id: Callable[[], str]) -> None:
        self._calls: list[tuple[str, Call]] = []
        self._declared: list[dict[str, Any]] = []
        for made in callable_hooks(hooks, session_id):
            declared = {"matcher": made.matcher, "timeout": made.timeout, "onFailure": made.on_failure}
            self._add(made.call, event=made.event, name=made.name, **declared)
        for boundary, given in (
            ("pre_model_request", hooks.pre_model_request),
            ("after_tool_batch", hooks.after_tool_batch),
            ("turn_end", hooks.turn_end),
        ):
            for hook in given:
                self._add(hook, event=boundary, name=hook_name(boundary, hook))
        self._running: dict[str, asyncio.Task[dict[str, Any]]] = {}

    @property
    def declared(self) -> list[dict[str, Any]]:
        """The hooks as `_meta.vtcode.hooks` declares them to the child."""
        return self._declared

    async def call(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Answer one `_vtcode/hook` request: the decision, or what the callback raised."""
        hook_id, payload = params.get("hookId"), params.get("payload")
        if (
            not isinstance(hook_id, int)
            or not 0 <= hook_id < len(self._calls)
            or not isinstance(payload, dict)
        ):
            raise RequestError.invalid_params({"hookId": hook_id, "details": "no such hook, or bad payload"})
        boundary, call = self._calls[hook_id]
        call_id = str(params.get("callId", ""))
        task = asyncio.ensure_future(self._run(boundary, call, payload))
        self._running[call_id] = task
        try:
            return await task
        except asyncio.CancelledError:
            if not task.cancelled():
                raise
            return {"raised": "CancelledError", "message": "the hook was cancelled"}
        finally:
            self._running.pop(call_id, None)

    def cancel(self, params: Mapping[str, Any]) -> None:
        """`_vtcode/hook_cancel`: the child stopped waiting (timeout, interrupt)."""
        running = self._running.get(str(params.get("callId")))
        if running is not None:
            running.cancel()

    def cancel_all(self) -> None:
        """The connection is closing: running callbacks stop."""
        for task in self._running.values():
            task.cancel()

    # -- inside ----------------------------------------------------------------------------------------

    def _add(self, call: Call, **declared: Any) -> None:
        boundary = str(declared["event"])
        self._declared.append({"id": len(self._calls), **declared})
        self._calls.append((boundary, call))

    async def _run(self, boundary: str, call: Call, payload: dict[str, Any]) -> dict[str, Any]:
        try:
            match boundary:
                case "pre_model_request":
                    await observers.observe(call, msgspec.convert(payload, BeforeRequest), boundary)
                case "after_tool_batch":
                    await observers.observe(call, msgspec.convert(payload, AfterToolBatch), boundary)
                case "turn_end":
                    await observers.observe(call, _turn_end(payload), boundary)
                case _:
                    return {"result": dataclasses.asdict(await call(payload))}
        except Exception as exc:  # the callback's failure is the child's to judge (fail closed or warn)
            log.debug("a %s hook raised", boundary, exc_info=True)
            return {"raised": type(exc).__name__, "message": str(exc)}
        return {}


def _turn_end(payload: Mapping[str, Any]) -> TurnEnd:
    error: BaseException | None = error_from_fields(payload.get("error"))
    if type(error).__name__ == "CancelledError":
        # An interrupted turn ends with the cancellation, as in-process.
        error = asyncio.CancelledError(str(error))
    return TurnEnd(turn=int(payload.get("turn", 0)), final_text=payload.get("final_text"), error=error)
