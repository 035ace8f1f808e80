"""`OUT/summary.json` and `vtcode batch status`: counts by status, tokens, cost, durations."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from vtcode.core.batch.result import TaskResult
from vtcode.core.batch.status import TaskState, status_of
from vtcode.protocol.messages import Usage

_SLOWEST = 5


class SlowTask(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of the slowest tasks."""

    id: str
    status: str
    duration_s: float


class BatchSummary(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A batch folder at a glance."""

    total: int
    counts: dict[str, int]
    usage: Usage = Usage()
    cost_usd: float = 0.0
    unpriced_tasks: int = 0
    # Tasks that ended `error` because the provider kept failing (exit 4).
    provider_errors: int = 0
    duration_p50_s: float | None = None
    duration_p95_s: float | None = None
    slowest: tuple[SlowTask, ...] = ()


def _percentile(ordered: list[float], fraction: float) -> float | None:
    if not ordered:
        return None
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def summarize(ids: list[str], states: Mapping[str, TaskState]) -> BatchSummary:
    """The summary of the tasks `ids` in the given states (an absent id is pending)."""
    counts: dict[str, int] = {}
    usage = Usage()
    cost = 0.0
    unpriced = 0
    provider_errors = 0
    results: list[TaskResult] = []
    for task_id in ids:
        state = states.get(task_id, "missing")
        word = status_of(state)
        counts[word] = counts.get(word, 0) + 1
        if isinstance(state, TaskResult):
            results.append(state)
            provider_errors += state.status == "error" and state.exit_code == 4
            usage = usage + state.usage
            if state.cost_usd is None:
                unpriced += 1
            else:
                cost += state.cost_usd
    durations = sorted(result.duration_s for result in results)
    slowest = sorted(results, key=lambda result: result.duration_s, reverse=True)[:_SLOWEST]
    return BatchSummary(
        total=len(ids),
        counts=counts,
        usage=usage,
        cost_usd=round(cost, 6),
        unpriced_tasks=unpriced,
        provider_errors=provider_errors,
        duration_p50_s=_percentile(durations, 0.5),
        duration_p95_s=_percentile(durations, 0.95),
        slowest=tuple(SlowTask(r.id, r.status, round(r.duration_s, 3)) for r in slowest),
    )


def encode_summary(summary: BatchSummary) -> bytes:
    """summary.json's bytes."""
    return msgspec.json.format(msgspec.json.encode(summary), indent=2) + b"\n"
