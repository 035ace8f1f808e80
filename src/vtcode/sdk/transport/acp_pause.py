"""Paused approvals of a session in a `vtcode acp` child, read and decided from the program's process.

The child records each call it would ask about in the session folder before the program sees the
request (`acp.client_pause`), and runs the decided ones at the start of the next turn; the folder is
the contract, so the program lists and decides them in the same `paused_calls.json` (under its lock)
an in-process session would, and any later process, on either transport, finds them there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from vtcode.protocol.acp_messages import OpenedMeta
from vtcode.protocol.acp_methods import META_KEY
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.events import ApprovalRequested
from vtcode.store.paused_calls import PausedCall


class ChildPausedCalls:
    """The paused calls of one subprocess session (`sdk.pause.Paused`)."""

    def __init__(self) -> None:
        # Told by the child when the session opened; None: a session stored nowhere.
        self.directory: Path | None = None
        # What the child recorded for each request it sent (the record, or why it could not).
        self._noted: dict[str, PausedCall | str] = {}

    def opened(self, meta: object) -> None:
        """Read the folder from the open session's `_meta.vtcode.pausedCallsDir` (a new session has
        none until its first turn: the first paused call names it)."""
        try:
            found = msgspec.convert(meta.get(META_KEY) if isinstance(meta, dict) else None, OpenedMeta)
        except msgspec.ValidationError:
            found = OpenedMeta()
        self.directory = Path(found.paused_calls_dir) if found.paused_calls_dir else None

    def note(
        self, request_id: str, paused: dict[str, Any] | None, error: str | None, directory: str | None = None
    ) -> None:
        """What came with an `approval.requested` event (called in order, before the program routes it)."""
        if directory:
            self.directory = Path(directory)
        if paused is not None:
            try:
                self._noted[request_id] = msgspec.convert(paused, PausedCall)
            except msgspec.ValidationError as exc:
                self._noted[request_id] = f"the child's record of the call is malformed: {exc}"
        elif error is not None:
            self._noted[request_id] = error

    def pause(self, request: ApprovalRequested) -> PausedCall:
        """The record the child made of `request`'s call (raises `VtcodeError` when it made none)."""
        noted = self._noted.pop(request.request_id, None)
        if isinstance(noted, PausedCall):
            return noted
        raise VtcodeError(noted or "the vtcode acp child did not record the call")
