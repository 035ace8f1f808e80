"""Approvals that pause, for an ACP client that asked for them (the SDK's `approval="pause"`).

With `_meta.vtcode.pausedCalls`, the session runs the calls paused earlier and since decided at the
start of its next turn (`runtime.paused_calls`) and tells the client, in the `session/new` or
`session/load` answer, the folder whose `paused_calls.json` lists them, so the client reads and
decides them itself, as an in-process program does. With `_meta.vtcode.pause` as well, every call that
would be asked about is first recorded there: its `approval.requested` event carries the record
(`paused` and `pausedCallsDir`, or `pauseError` when it could not be written), and the client ends
the turn with an interrupt instead of answering.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from vtcode.protocol.acp_messages import EventParams, OpenedMeta
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.events import ApprovalRequested

if TYPE_CHECKING:
    from vtcode.runtime.paused_calls import PausedApprovals
    from vtcode.runtime.session import Session


class ClientPause:
    """One session's paused calls, for the client."""

    def __init__(self, paused: PausedApprovals, *, record: bool) -> None:
        self._paused = paused
        self._record = record

    @classmethod
    def attach(cls, session: Session, *, record: bool) -> ClientPause:
        """Run decided calls at the start of `session`'s next turn; with `record`, pause what is asked."""
        from vtcode.runtime.paused_calls import PausedApprovals

        return cls(PausedApprovals.attach(session), record=record)

    def meta(self) -> OpenedMeta:
        """What the open session's answer tells the client (`_meta.vtcode`)."""
        return OpenedMeta(self._directory())

    def _directory(self) -> str | None:
        directory = self._paused.directory
        return str(directory) if directory is not None else None

    def note(self, params: EventParams) -> EventParams:
        """Record the call an `approval.requested` asks about: its notification carries the record."""
        if not self._record or not isinstance(params.event, ApprovalRequested):
            return params
        try:
            record = msgspec.to_builtins(self._paused.pause(params.event))
        except VtcodeError as exc:
            return msgspec.structs.replace(params, pause_error=exc.user_text())
        # A new session's folder exists from its first turn on: the client learns it with the record.
        return msgspec.structs.replace(params, paused=record, paused_calls_dir=self._directory())
