"""The program's Python hooks for a session in a `vtcode acp` child: declared at open, run here on call.

The child runs them in its one hook dispatcher and turn loop as proxies (`acp.client_hooks`): each call
is a `_vtcode/hook` request answered here with the callback's decision, or with what it raised (the
child then fails closed, as in-process). The callbacks and their typed inputs are the in-process ones
(`sdk.tool_hooks`, `sdk.hooks`); timeouts are the child's, which withdraws a call it stopped waiting
for with `_vtcode/hook_cancel`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec
from acp import RequestError

from vtcode.core.hooks.acp_messages import DeclaredHook, HookAnswer, HookCallParams, Observer, TurnEndView
from vtcode.protocol.error_fields import error_from_fields
from vtcode.runtime.hooks import AfterToolBatch, BeforeRequest, TurnEnd
from vtcode.sdk import hooks as observers
from vtcode.sdk.hooks import Hooks
from vtcode.sdk.tool_hooks import callable_hooks, hook_name
from vtcode.sdk.transport.running_calls import RunningCalls

log = logging.getLogger(__name__)

Call = Callable[[Any], Any]


class HookServer:
    """Runs one session's Python hooks for its child."""

    def __init__(self, hooks: Hooks, session_id: Callable[[], str]) -> None:
        # Each hook with its declaration; its place here is its id.
        self._hooks: list[tuple[DeclaredHook, Call]] = []
        for made in callable_hooks(hooks, session_id):
            declared = DeclaredHook(
                len(self._hooks), made.event, made.name, made.matcher, made.timeout, made.on_failure
            )
            self._hooks.append((declared, made.call))
        observed: tuple[tuple[Observer, Sequence[Call]], ...] = (
            ("pre_model_request", hooks.pre_model_request),
            ("after_tool_batch", hooks.after_tool_batch),
            ("turn_end", hooks.turn_end),
        )
        for boundary, given in observed:
            for hook in given:
                self._hooks.append(
                    (DeclaredHook(len(self._hooks), boundary, hook_name(boundary, hook)), hook)
                )
        self._running: RunningCalls[HookAnswer] = RunningCalls()

    @property
    def declared(self) -> list[dict[str, Any]]:
        """The hooks as `_meta.vtcode.hooks` declares them to the child."""
        return [msgspec.to_builtins(declared) for declared, _ in self._hooks]

    async def call(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Answer one `_vtcode/hook` request: the decision, or what the callback raised."""
        try:
            ask = msgspec.convert(params, HookCallParams)
        except msgspec.ValidationError:
            ask = None
        if ask is None or not 0 <= ask.hook_id < len(self._hooks):
            hook_id = params.get("hookId")
            raise RequestError.invalid_params({"hookId": hook_id, "details": "no such hook, or bad payload"})
        declared, call = self._hooks[ask.hook_id]
        answer = await self._running.run(
            ask.call_id,
            self._run(declared.event, call, ask.payload),
            lambda: HookAnswer(raised="CancelledError", message="the hook was cancelled"),
        )
        found: dict[str, Any] = msgspec.to_builtins(answer)
        return found

    def cancel(self, call_id: str) -> None:
        """`_vtcode/hook_cancel`: the child stopped waiting (timeout, interrupt)."""
        self._running.withdraw(call_id)

    def cancel_all(self) -> None:
        """The connection is closing: running callbacks stop."""
        self._running.cancel_all()

    # -- inside ----------------------------------------------------------------------------------------

    async def _run(self, boundary: str, call: Call, payload: dict[str, Any]) -> HookAnswer:
        try:
            match boundary:
                case "pre_model_request":
                    await observers.observe(call, msgspec.convert(payload, BeforeRequest), boundary)
                case "after_tool_batch":
                    await observers.observe(call, msgspec.convert(payload, AfterToolBatch), boundary)
                case "turn_end":
                    await observers.observe(call, _turn_end(msgspec.convert(payload, TurnEndView)), boundary)
                case _:
                    return HookAnswer(result=await call(payload))
        except Exception as exc:  # the callback's failure is the child's to judge (fail closed or warn)
            log.debug("a %s hook raised", boundary, exc_info=True)
            return HookAnswer(raised=type(exc).__name__, message=str(exc))
        return HookAnswer()


def _turn_end(view: TurnEndView) -> TurnEnd:
    error: BaseException | None = error_from_fields(view.error)
    if type(error).__name__ == "CancelledError":
        # An interrupted turn ends with the cancellation, as in-process.
        error = asyncio.CancelledError(str(error))
    return TurnEnd(turn=view.turn, final_text=view.final_text, error=error)
