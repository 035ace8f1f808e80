"""Resume rules: which tasks of an output folder run again (reference batch-scale.md section 8.5).

- `completed`, `failed` and `timeout` are terminal: skipped on a rerun.
- `error` (exit 2/4, an infrastructure failure) and `interrupted` (the batch was stopped) run again.
- `--retry-failed` also reruns `failed` and `timeout`; `--redo-existing` reruns everything.
- A task folder without a readable `result.json` (missing, empty, truncated, not a result) is "not
  done": the task runs again and its folder is first set aside as `<id>.stale-<n>`, never deleted.
A rerun of a task that has a result sets the old folder aside the same way, so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from vtcode.core.batch.job import TaskStatus
from vtcode.core.batch.result import TaskResult

TERMINAL: frozenset[TaskStatus] = frozenset({"completed", "failed", "timeout"})
"""Statuses a plain rerun skips."""

RETRIED: frozenset[TaskStatus] = frozenset({"failed", "timeout"})
"""Terminal statuses `--retry-failed` reruns as well."""

Missing = Literal["missing"]
Damaged = Literal["damaged"]
TaskState = TaskResult | Missing | Damaged
"""What the output folder says of one task: its result, no folder at all, or a folder without a result."""


@dataclass(frozen=True)
class ResumeOptions:
    """The rerun switches of `vtcode batch run`."""

    retry_failed: bool = False
    redo_existing: bool = False


@dataclass(frozen=True)
class Selection:
    """Which tasks run, which are skipped, and whose existing folder is set aside first."""

    run: tuple[str, ...]
    skip: tuple[str, ...]
    set_aside: tuple[str, ...]


def should_run(state: TaskState, options: ResumeOptions) -> bool:
    """Whether a task in `state` runs (again) under `options`."""
    if state in ("missing", "damaged") or options.redo_existing:
        return True
    assert isinstance(state, TaskResult)
    if state.status not in TERMINAL:
        return True
    return options.retry_failed and state.status in RETRIED


def select(ids: Iterable[str], states: Mapping[str, TaskState], options: ResumeOptions) -> Selection:
    """Apply the rules to every task id, in order; an id absent from `states` is missing."""
    run: list[str] = []
    skip: list[str] = []
    aside: list[str] = []
    for task_id in ids:
        state = states.get(task_id, "missing")
        if should_run(state, options):
            run.append(task_id)
            if state != "missing":
                aside.append(task_id)
        else:
            skip.append(task_id)
    return Selection(run=tuple(run), skip=tuple(skip), set_aside=tuple(aside))


def stale_name(task_id: str, taken: Collection[str]) -> str:
    """The first free `<id>.stale-<n>` folder name (n from 1) among the names in `taken`."""
    n = 1
    while f"{task_id}.stale-{n}" in taken:
        n += 1
    return f"{task_id}.stale-{n}"


def status_of(state: TaskState) -> str:
    """A task's status word for listings: its result's status, `pending` or `damaged`."""
    if isinstance(state, TaskResult):
        return state.status
    return "pending" if state == "missing" else "damaged"
