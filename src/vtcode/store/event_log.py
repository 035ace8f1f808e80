"""Reading a session's `events.jsonl` back: what happened in its earlier runs, for a front end to show."""

from __future__ import annotations

import logging
from pathlib import Path

import msgspec

from vtcode.protocol.events import Event, decode_event

log = logging.getLogger(__name__)

# A resumed session shows at most this much of its past (the newest part).
MAX_EVENT_BYTES = 16 * 1024 * 1024


def events_size(path: Path) -> int:
    """How many bytes of events are stored at `path` now (0 when there is no file)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def read_events(path: Path, end: int, limit: int = MAX_EVENT_BYTES) -> list[Event]:
    """The events stored in the first `end` bytes of `path`, oldest first (at most the last `limit`
    bytes of them); lines that do not decode (a torn write) are skipped."""
    start = max(0, end - limit)
    try:
        with open(path, "rb") as file:
            file.seek(start)
            data = file.read(end - start)
    except OSError:
        return []
    lines = data.split(b"\n")
    if start > 0:
        lines = lines[1:]  # the first line was cut
    events: list[Event] = []
    for line in lines:
        if not line.strip():
            continue
        try:
            events.append(decode_event(line))
        except (msgspec.DecodeError, msgspec.ValidationError):
            log.debug("skipped an undecodable event line in %s", path)
    return events
