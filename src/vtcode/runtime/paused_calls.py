"""Approvals that pause: a call waiting for approval ends the turn, and the decision comes later,
from this process or another one that resumed the session.

`pause` records the call durably (`store.paused_calls`) before the turn is interrupted; the program
records its answer in the same file (`sdk.pause.decide`). The next turn of the session, in whatever
process, first runs the decided calls through the session's own dispatcher (hooks, sandbox,
checkpoints, events), each at most once: a call is marked running before it starts, so one that was
running when its process died is reported to the model as of unknown outcome, never started again.
What happened reaches the model as one context message stored with that turn's prompt; the records
then leave the file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from vtcode.core.approvals import Grant
from vtcode.protocol.errors import UsageError
from vtcode.protocol.events import ApprovalRequested
from vtcode.protocol.messages import AssistantMessage, Message, MessageMeta, ToolCall, UserMessage
from vtcode.runtime.hooks import TurnStart
from vtcode.store.paused_calls import CallState, PausedCall, PausedCallStore

if TYPE_CHECKING:
    from vtcode.runtime.session import Session

_MARK = "paused call"
UNKNOWN = (
    "approved, but vtcode stopped while it ran: whether it finished is unknown, and it was not run "
    "again (check its effects before repeating it)"
)


class PausedApprovals:
    """The paused calls of one runtime session; attach with `PausedApprovals.attach(session)`."""

    def __init__(self, session: Session) -> None:
        # The session's parts (its dispatcher, history and store) are this module's to drive, as the
        # session's own turn-running mixins do.
        self._wiring = session._wiring

    @classmethod
    def attach(cls, session: Session) -> PausedApprovals:
        """Run decided calls at the start of `session`'s next turn."""
        paused = cls(session)
        if not session.options.ephemeral:
            # An ephemeral session stores nothing, so no call of it is ever paused: no hook per turn.
            session.hooks.turn_start.append(paused._run_decided)
        return paused

    @property
    def calls(self) -> tuple[PausedCall, ...]:
        """Every stored call not yet reported to the model."""
        store = self._store()
        if store is None:
            return ()
        calls = store.read()
        if self._unreported(calls) != calls:
            # Crashed after the history took their lines: they are told, and leave the file.
            calls = store.update(self._unreported)
        return calls

    def pause(self, request: ApprovalRequested) -> PausedCall:
        """Record the call `request` asks about, durably (raises `StoreError`, `UsageError`)."""
        store = self._store()
        if store is None:
            raise UsageError(
                "approval='pause' needs a stored session", hint="open the session without ephemeral=True"
            )
        call = self._call_of(request)
        paused = PausedCall(
            request_id=request.request_id,
            call_id=call.id,
            tool=call.name,
            arguments=call.arguments,
            display=request.display,
            kind=request.kind,
            reason=request.reason,
            session_prefix=request.session_prefix,
        )
        store.update(lambda calls: (*(c for c in calls if c.request_id != paused.request_id), paused))
        return paused

    @property
    def directory(self) -> Path | None:
        """The session folder that holds the paused calls (None for a session stored nowhere)."""
        store = self._store()
        return store.directory if store is not None else None

    async def _run_decided(self, start: TurnStart) -> Sequence[Message]:
        store = self._store()
        if store is None:
            return ()
        decided = [c for c in self.calls if c.state != "pending"]
        if not decided:
            return ()
        lines: list[str] = []
        for call in decided:
            result = call.result if call.state == "done" else await self._run(store, call)
            lines.append(
                f"- [{_MARK} {call.request_id}] `{call.tool}` ({call.display}), call {call.call_id}: {result}"
            )
        text = (
            "The tool calls that waited for approval when the last turn paused were decided:\n"
            + "\n".join(lines)
        )
        return [UserMessage(text, meta=MessageMeta(kind="context", turn=start.turn))]

    async def _run(self, store: PausedCallStore, call: PausedCall) -> str:
        """Run (or refuse) one decided call once; its line for the model."""
        if call.state == "denied":
            result = f"denied{': ' + call.deny_reason if call.deny_reason else ''}; it did not run"
        elif call.state == "running":
            result = UNKNOWN
        else:
            self._set(store, call, "running")
            result = await self._execute(call)
        self._set(store, call, "done", result)
        return result

    async def _execute(self, call: PausedCall) -> str:
        dispatcher = self._wiring.dispatcher
        grant = (
            Grant("prefix", call.session_prefix)
            if call.remember == "prefix" and call.session_prefix
            else None
        )
        once = Grant("tool", call.tool)
        had = once in dispatcher.grants.listed()
        # The program's allow answers this call's "ask"; deny rules and the sandbox still apply.
        dispatcher.grants = dispatcher.grants.with_grant(once)
        try:
            done = await dispatcher.run_call(
                ToolCall(id=call.call_id, name=call.tool, arguments=call.arguments)
            )
        finally:
            if not had and call.remember != "tool":
                dispatcher.revoke(once)
            if grant is not None:
                dispatcher.grants = dispatcher.grants.with_grant(grant)
        state = "it failed" if done.is_error else "it ran"
        return f"approved; {state}. Its result:\n{done.content}"

    def _set(self, store: PausedCallStore, call: PausedCall, state: CallState, result: str = "") -> None:
        def change(calls: tuple[PausedCall, ...]) -> tuple[PausedCall, ...]:
            return tuple(
                msgspec.structs.replace(c, state=state, result=result)
                if c.request_id == call.request_id
                else c
                for c in calls
            )

        store.update(change)

    def _unreported(self, calls: tuple[PausedCall, ...]) -> tuple[PausedCall, ...]:
        """`calls` less the done ones whose line the history already holds (stored with a prompt)."""
        done = [c for c in calls if c.state == "done"]
        if not done:
            return calls
        told = "\n".join(
            m.content
            for m in self._wiring.state.messages
            if isinstance(m, UserMessage) and _MARK in m.content
        )
        return tuple(c for c in calls if c.state != "done" or f"[{_MARK} {c.request_id}]" not in told)

    def _call_of(self, request: ApprovalRequested) -> ToolCall:
        """The call of the model's last reply that `request` asks about (same tool and display)."""
        reply = next(
            (m for m in reversed(self._wiring.state.messages) if isinstance(m, AssistantMessage)), None
        )
        calls = [c for c in (reply.tool_calls if reply is not None else ()) if c.name == request.tool]
        tools = self._wiring.dispatcher.tools
        for call in calls:
            try:
                shown = tools[call.name].describe(json.loads(call.arguments)).display
            except (KeyError, ValueError, TypeError):
                continue
            if shown == request.display:
                return call
        if not calls:
            raise UsageError(f"the call {request.request_id!r} asks about is not in the history")
        # A hook rewrote the arguments: the display no longer matches; the tool's first call it is.
        return calls[0]

    def _store(self) -> PausedCallStore | None:
        handle = self._wiring.history.handle
        return PausedCallStore(handle.dir) if handle is not None else None
