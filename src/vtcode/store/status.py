"""How a session's last turn ended, read from the tail of its `events.jsonl`.

`sessions list` shows it so a failed run does not look like a normal session. The event log is only
read backwards from its end until the last `turn.*` event, so a long session costs one small read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import msgspec

SessionStatus = Literal["completed", "failed", "interrupted", "unfinished", "new"]

_BLOCK = 64 * 1024
_TURN_EVENTS = (b'"turn.completed"', b'"turn.failed"', b'"turn.started"')


class _TurnEvent(msgspec.Struct):
    type: str
    kind: str = ""


_decoder = msgspec.json.Decoder(_TurnEvent)


def last_turn_status(events_path: Path) -> SessionStatus:
    """`completed`, `failed`, `interrupted`, `unfinished` (started, never ended: a crash or a run in
    progress), or `new` (no turn recorded, or no readable event log)."""
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
                    status = _status_of(line)
                    if status is not None:
                        return status
                end = start
    except OSError:
        return "new"
    return "new"


def _status_of(line: bytes) -> SessionStatus | None:
    if not any(marker in line for marker in _TURN_EVENTS):
        return None
    try:
        event = _decoder.decode(line)
    except msgspec.DecodeError:
        return None
    if event.type == "turn.completed":
        return "completed"
    if event.type == "turn.failed":
        return "interrupted" if event.kind == "interrupted" else "failed"
    if event.type == "turn.started":
        return "unfinished"
    return None
