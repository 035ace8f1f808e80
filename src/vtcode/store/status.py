"""How a session's last run ended, read from the tail of its `events.jsonl`: its last turn's status, and
whether it held its waiting input.

`sessions list` shows the status so a failed run does not look like a normal session; a resume keeps
the hold, so input an interrupt held does not start by itself because the session was reopened. The
event log is only read backwards from its end until the last event that answers, so a long session
costs one small read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Literal, TypeVar

import msgspec

SessionStatus = Literal["completed", "failed", "interrupted", "unfinished", "new"]
HeldFor = Literal["requested", "interrupted"]

_BLOCK = 64 * 1024
_TURN_EVENTS = (b'"turn.completed"', b'"turn.failed"', b'"turn.started"')
# What says whether the session held when it closed: a pause or its end, or a turn that started after.
_HOLD_EVENTS = (b'"session.paused"', b'"session.resumed"', b'"turn.started"')

T = TypeVar("T")


class _TailEvent(msgspec.Struct):
    type: str
    kind: str = ""
    reason: str = ""


_decoder = msgspec.json.Decoder(_TailEvent)


def last_turn_status(events_path: Path) -> SessionStatus:
    """`completed`, `failed`, `interrupted`, `unfinished` (started, never ended: a crash or a run in
    progress), or `new` (no turn recorded, or no readable event log)."""
    return _last(events_path, _TURN_EVENTS, _status_of) or "new"


def held_at_close(events_path: Path) -> HeldFor | None:
    """Why the session held when its last run ended (`session.paused` with no `session.resumed` or
    `turn.started` after it), None when it did not."""
    found: HeldFor | Literal[""] | None = _last(events_path, _HOLD_EVENTS, _hold_of)
    return found or None


def _last(events_path: Path, markers: tuple[bytes, ...], read: Callable[[_TailEvent], T | None]) -> T | None:
    """What `read` makes of the last event carrying one of `markers`, reading the log backwards."""
    try:
        with events_path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            end = size
            carry = b""
            while end > 0:
                start = max(0, end - _BLOCK)
                handle.seek(start)
                block = handle.read(end - start) + carry
                lines = block.split(b"\n")
                # The first piece may be the end of a line that starts in an earlier block.
                carry = lines.pop(0) if start > 0 else b""
                for line in reversed(lines):
                    if not any(marker in line for marker in markers):
                        continue
                    try:
                        found = read(_decoder.decode(line))
                    except msgspec.DecodeError:
                        continue
                    if found is not None:
                        return found
                end = start
    except OSError:
        return None
    return None


def _status_of(event: _TailEvent) -> SessionStatus | None:
    if event.type == "turn.completed":
        return "completed"
    if event.type == "turn.failed":
        return "interrupted" if event.kind == "interrupted" else "failed"
    if event.type == "turn.started":
        return "unfinished"
    return None


def _hold_of(event: _TailEvent) -> HeldFor | Literal[""] | None:
    """The hold a paused event put on; "" for an event after which nothing held."""
    if event.type == "session.paused":
        return "interrupted" if event.reason == "interrupted" else "requested"
    if event.type in ("session.resumed", "turn.started"):
        return ""
    return None
