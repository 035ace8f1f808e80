"""A task's `trajectory.json` (ATIF, Harbor's trajectory format) from its `events.jsonl`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from vtcode import __version__
from vtcode.core.atif import trajectory_from_events


def _events(data: bytes) -> list[Mapping[str, Any]]:
    """The JSON objects of an event stream; lines that are not (a cut-off last line) are skipped."""
    events: list[Mapping[str, Any]] = []
    for raw in data.splitlines():
        try:
            value = msgspec.json.decode(raw)
        except msgspec.DecodeError:
            continue
        if isinstance(value, dict):
            events.append(value)
    return events


def trajectory_json(events: bytes, *, task_id: str, model: str, instruction: str) -> bytes:
    """trajectory.json's bytes for one task's `vtcode exec --json` stream."""
    parsed = _events(events)
    session = next(
        (str(event.get("thread_id")) for event in parsed if event.get("type") == "thread.started"), task_id
    )
    trajectory = trajectory_from_events(
        parsed,
        session_id=session,
        agent_version=__version__,
        model_name=model or None,
        instruction=instruction or None,
    )
    return msgspec.json.format(msgspec.json.encode(trajectory), indent=2) + b"\n"
