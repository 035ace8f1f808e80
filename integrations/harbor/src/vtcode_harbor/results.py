"""What a finished `vtcode exec --json` run left in the trial's agent logs: its events and its totals."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Totals:
    """Tokens (input includes cached, as Harbor's `n_input_tokens`) and cost of a run."""

    input_tokens: int = 0
    cached_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None


def read_events(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of an events file; lines that are not (a torn last line after a kill) are skipped."""
    if not path.is_file():
        return []
    events: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("type"), str):
            events.append(value)
    return events


def _count(usage: Mapping[str, Any], key: str) -> int:
    value = usage.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def totals(events: Sequence[Mapping[str, Any]]) -> Totals:
    """The run's usage: `thread.completed` when the run ended properly, else the sum of its turns."""
    usage: Mapping[str, Any] | None = None
    cost: float | None = None
    turns = {"input_tokens": 0, "cached_input_tokens": 0, "output_tokens": 0}
    for event in events:
        kind = event.get("type")
        if kind == "thread.completed" and isinstance(event.get("usage"), Mapping):
            usage = event["usage"]
        elif kind == "turn.completed" and isinstance(event.get("usage"), Mapping):
            for key in turns:
                turns[key] += _count(event["usage"], key)
        elif kind == "usage" and isinstance(event.get("cost_usd"), int | float):
            cost = float(event["cost_usd"])
    final = usage if usage is not None else turns
    return Totals(
        input_tokens=_count(final, "input_tokens"),
        cached_tokens=_count(final, "cached_input_tokens"),
        output_tokens=_count(final, "output_tokens"),
        cost_usd=cost,
    )


def thread_id(events: Sequence[Mapping[str, Any]]) -> str | None:
    """The session id the run announced first, if any."""
    for event in events:
        if event.get("type") == "thread.started" and isinstance(event.get("thread_id"), str):
            return str(event["thread_id"])
    return None
