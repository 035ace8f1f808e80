"""A task's `trajectory.json` (ATIF, Harbor's trajectory format) from its `events.jsonl`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from vtcode import __version__
from vtcode.core.atif import trajectory_from_events


def _events(data: bytes) -> list[Mapping[str, Any]]:
    """The JSON objects of an event stream; lines that are not (a cut-off last line) are skipped."""
    events: list[Mapping[str, Any]] = []
    for raw in data.splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
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
    return json.dumps(trajectory, indent=2, ensure_ascii=False).encode() + b"\n"
