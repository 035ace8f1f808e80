"""`approval="pause"`: a call that waits for approval ends the turn instead of waiting in it.

The call is recorded in the session store before the turn is interrupted (`runtime.paused_calls`), so
`Session.resume(id)` in another process sees it in `pending_approvals`, answers it with `approve()`,
and the next turn runs it, at most once, before its prompt goes to the model.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from vtcode.protocol.errors import UsageError, VtcodeError
from vtcode.protocol.events import ApprovalRequested
from vtcode.protocol.ops import ApprovalAnswer, Interrupt
from vtcode.sdk.permission import Allow, Decision, Deny
from vtcode.store.paused_calls import PausedCall, PausedCallStore, no_paused_call

if TYPE_CHECKING:
    from vtcode.sdk.transport import Transport
    from vtcode.sdk.turn import TurnHandle


class Paused(Protocol):
    """Where a session's paused calls are stored, and who records a call that would be asked about: the
    runtime itself in-process, the `vtcode acp` child over the subprocess transport (`transport.acp_pause`).

    Either way the program lists and decides them in that folder's `paused_calls.json` (`undecided`,
    `decide`), so any later process, on either transport, finds the decisions there.
    """

    @property
    def directory(self) -> Path | None:
        """The session folder that holds the paused calls (None: a session stored nowhere, or not yet)."""
        ...

    def pause(self, request: ApprovalRequested) -> PausedCall:
        """The durable record of `request`'s call (raises `VtcodeError` when there is none)."""
        ...


def attach(transport: Transport) -> Paused:
    """The session's paused calls; calls decided earlier run at the start of its next turn."""
    from vtcode.sdk.transport.in_process import InProcess

    if isinstance(transport, InProcess):
        from vtcode.runtime.paused_calls import PausedApprovals

        return PausedApprovals.attach(transport.runtime)
    from vtcode.sdk.transport.acp_subprocess import AcpSubprocess

    assert isinstance(transport, AcpSubprocess)
    # The child runs the decided calls itself (`acp.client_pause`).
    return transport.paused


def pause(paused: Paused, handle: TurnHandle[Any], request: ApprovalRequested) -> Interrupt | ApprovalAnswer:
    """Record `request`'s call durably and mark the turn paused; the operation that then ends it.

    A call that cannot be recorded is refused (the turn goes on): a pause nobody can resume would
    lose it.
    """
    try:
        # A small synchronous write (fsync included) in the reader task: the record must exist before
        # the interrupt, and nothing else of this session runs until it returns.
        handle.pause(paused.pause(request))
    except VtcodeError as exc:
        reason = f"the call could not be paused for approval: {exc.user_text()}"
        return ApprovalAnswer(request_id=request.request_id, decision="deny", reason=reason)
    return Interrupt()


def undecided(paused: Paused) -> tuple[PausedCall, ...]:
    """The session's paused calls that wait for a decision."""
    directory = paused.directory
    calls = PausedCallStore(directory).read() if directory is not None else ()
    return tuple(c for c in calls if c.state == "pending")


def decide(paused: Paused, request_id: str, decision: Decision) -> None:
    """Record the program's decision on a paused call durably (raises `UsageError` for an unknown or
    run one)."""
    match decision:
        case Allow(updated_args=updated) if updated is not None:
            raise UsageError("a paused call runs as it was asked: Allow(updated_args=...) is not supported")
        case Allow(remember=remember):
            _store(paused, request_id).decide(request_id, allow=True, remember=remember)
        case Deny(reason=reason):
            _store(paused, request_id).decide(request_id, allow=False, reason=reason)
        case _:
            raise TypeError(f"a decision is Allow(...) or Deny(...), not {decision!r}")


def _store(paused: Paused, request_id: str) -> PausedCallStore:
    directory = paused.directory
    if directory is None:
        raise no_paused_call(request_id)
    return PausedCallStore(directory)
