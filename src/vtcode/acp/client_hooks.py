"""Hooks the ACP client runs itself (the SDK's Python `hooks` in the parent process).

The client lists them in `session/new` / `session/load` (`_meta.vtcode.hooks`): deciding hooks
(`PreToolUse`, `PostToolUse`, `PostToolUseFailure`, `PreCompact`) become the runtime's in-process
callables, so the one hook dispatcher runs them after the configured commands, with their matcher,
timeout and failure policy, exactly as in-process; observers (`pre_model_request`, `after_tool_batch`)
join the turn loop's boundaries, and `turn_end` ones run just before the turn's end event is sent (so
the program sees them done when its turn's result comes). Each call is a `_vtcode/hook` request the
turn waits for; a call the turn stops waiting for (timeout, interrupt) is withdrawn with
`_vtcode/hook_cancel`."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import msgspec
from acp import RequestError

from vtcode.acp.client_calls import Caller, withdraw
from vtcode.core.hooks.acp_messages import DeclaredHook, HookAnswer, HookCallParams, TurnEndView
from vtcode.core.hooks.outcome import HookResult
from vtcode.protocol.acp_messages import CallCancel
from vtcode.protocol.acp_methods import HOOK, HOOK_CANCEL
from vtcode.protocol.error_fields import error_fields, raised_elsewhere
from vtcode.protocol.messages import Message
from vtcode.runtime.callable_hooks import CallableHook
from vtcode.runtime.hooks import AfterToolBatch, BeforeRequest, HistoryReplacement, TurnEnd, TurnHooks

log = logging.getLogger(__name__)


class ClientHooks:
    """The hooks a client declared for one session, called back over `caller`."""

    def __init__(
        self, declared: Sequence[DeclaredHook], caller: Caller, session_id: Callable[[], str]
    ) -> None:
        self._declared = tuple(declared)
        self._caller = caller
        self._session_id = session_id

    def deciding(self) -> tuple[CallableHook, ...]:
        """The deciding hooks, for the session's one hook dispatcher (`SessionOptions.callable_hooks`)."""
        made: list[CallableHook] = []
        for d in self._declared:
            match d.event:
                case "pre_model_request" | "after_tool_batch" | "turn_end":
                    continue
                case event:
                    made.append(
                        CallableHook(event, self._decide(d), d.name, d.matcher, d.timeout, d.on_failure)
                    )
        return tuple(made)

    def install(self, hooks: TurnHooks) -> None:
        """Register the observers on the session's turn loop, after the runtime's own (as in-process);
        `turn_end` ones run when the turn's end is sent (`turn_ended`)."""
        for d in self._declared:
            match d.event:
                case "pre_model_request":
                    hooks.before_request.append(self._before_request(d))
                case "after_tool_batch":
                    hooks.after_tool_batch.append(self._after_tool_batch(d))

    # -- inside ----------------------------------------------------------------------------------------

    def _decide(self, hook: DeclaredHook) -> Callable[[Mapping[str, Any]], Awaitable[HookResult]]:
        async def call(payload: Mapping[str, Any]) -> HookResult:
            # What a command hook reads on stdin (`hook_dispatch.fire`), as JSON values.
            answer = await self._ask(hook, json.loads(json.dumps(dict(payload), default=str)))
            if answer.raised:
                raise raised_elsewhere(answer.raised, answer.message)
            if answer.result is None:
                raise ValueError("the client's hook answer has no result")
            return answer.result

        return call

    def _before_request(
        self, hook: DeclaredHook
    ) -> Callable[[BeforeRequest], Awaitable[HistoryReplacement | None]]:
        async def run(view: BeforeRequest) -> HistoryReplacement | None:
            await self._observe(hook, msgspec.to_builtins(view))
            return None

        return run

    def _after_tool_batch(
        self, hook: DeclaredHook
    ) -> Callable[[AfterToolBatch], Awaitable[Sequence[Message]]]:
        async def run(batch: AfterToolBatch) -> Sequence[Message]:
            await self._observe(hook, msgspec.to_builtins(batch))
            return ()

        return run

    async def turn_ended(self, end: TurnEnd) -> None:
        """Run the `turn_end` observers, in order (before the turn's end event reaches the client)."""
        error = error_fields(end.error) if end.error is not None else None
        payload = msgspec.to_builtins(TurnEndView(end.turn, end.final_text, error))
        for d in self._declared:
            if d.event == "turn_end":
                await self._observe(d, payload)

    async def _observe(self, hook: DeclaredHook, payload: dict[str, Any]) -> None:
        # Observers never decide: a client that cannot answer is logged and the turn goes on.
        try:
            answer = await self._ask(hook, payload)
        except (ConnectionError, ValueError) as exc:
            log.warning("the %s hook could not be run by the client: %s", hook.name, exc)
            return
        if answer.raised:
            log.warning("the %s hook raised %s: %s", hook.name, answer.raised, answer.message)

    async def _ask(self, hook: DeclaredHook, payload: dict[str, Any]) -> HookAnswer:
        call = HookCallParams(
            session_id=self._session_id(), call_id=str(uuid.uuid4()), hook_id=hook.id, payload=payload
        )
        try:
            raw = await self._caller.ext_method(HOOK, msgspec.to_builtins(call))
        except asyncio.CancelledError:
            # Timed out or interrupted: the callback in the client may still run; ask it to stop.
            withdraw(self._caller, HOOK_CANCEL, CallCancel(call.session_id, call.call_id))
            raise
        except (RequestError, ConnectionError) as exc:
            raise ConnectionError(f"the client did not answer: {exc}") from None
        try:
            return msgspec.convert(raw, HookAnswer)
        except msgspec.ValidationError as exc:
            raise ValueError(f"the client's hook answer is malformed: {exc}") from None


def client_hooks(
    declared: Sequence[Mapping[str, Any]], caller: Caller, session_id: Callable[[], str]
) -> ClientHooks:
    """The declared hooks (raises `msgspec.ValidationError` for a bad declaration)."""
    return ClientHooks([msgspec.convert(d, DeclaredHook) for d in declared], caller, session_id)
