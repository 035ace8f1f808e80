"""The batch output folder on disk: reading task states, setting folders aside, predictions, summary.

Its layout (every name in it) is `vtcode.batch.layout`.
"""

from __future__ import annotations

import os
from pathlib import Path

from vtcode.batch.layout import (
    EVENTS_FILE,
    INSTRUCTION_FILE,
    PATCH_FILE,
    PREDS_JSON,
    PREDS_JSONL,
    RESULT_FILE,
    RUN_FILE,
    SUMMARY_FILE,
    TASKS_FOLDER,
    TRAJECTORY_FILE,
    task_dir,
)
from vtcode.batch.trajectory import trajectory_json
from vtcode.core.batch.preds import predictions, preds_json, preds_jsonl
from vtcode.core.batch.result import TaskResult, decode_result
from vtcode.core.batch.run_record import RunRecord, decode_run, encode_run
from vtcode.core.batch.status import TaskState, stale_name
from vtcode.core.batch.summary import BatchSummary, encode_summary, summarize
from vtcode.protocol.errors import UsageError
from vtcode.store.atomic import atomic_write


def read_state(out_dir: Path, task_id: str) -> TaskState:
    """A task's state in the folder: its result, "missing" (no folder) or "damaged" (no readable result)."""
    folder = task_dir(out_dir, task_id)
    if not folder.is_dir():
        return "missing"
    try:
        data = (folder / RESULT_FILE).read_bytes()
    except OSError:
        return "damaged"
    result = decode_result(data)
    if result is None or result.id != task_id:
        return "damaged"
    return result


def read_states(out_dir: Path, ids: list[str]) -> dict[str, TaskState]:
    """The state of every task in `ids`."""
    return {task_id: read_state(out_dir, task_id) for task_id in ids}


def set_aside(out_dir: Path, task_id: str) -> Path | None:
    """Move `tasks/<id>` to `tasks/<id>.stale-<n>` (kept, never deleted); the new path, None if absent."""
    folder = task_dir(out_dir, task_id)
    if not folder.exists():
        return None
    parent = folder.parent
    target = parent / stale_name(task_id, set(os.listdir(parent)))
    folder.rename(target)
    return target


def earlier_attempts(out_dir: Path, task_id: str) -> int:
    """How many runs of a task the folder already holds (its current folder and the ones set aside)."""
    parent = out_dir / TASKS_FOLDER
    if not parent.is_dir():
        return 0
    prefix = f"{task_id}.stale-"
    return sum(1 for name in os.listdir(parent) if name == task_id or name.startswith(prefix))


def read_run(out_dir: Path) -> RunRecord | None:
    """run.json, or None when the folder has none; UsageError when it is not a run record."""
    path = out_dir / RUN_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or exc}") from None
    return decode_run(data, str(path))


def require_run(out_dir: Path) -> RunRecord:
    """run.json of a batch folder; UsageError when `out_dir` is not one."""
    record = read_run(out_dir)
    if record is None:
        raise UsageError(
            f"{out_dir} is not a vtcode batch folder (no {RUN_FILE})",
            hint="pass the -o folder of a `vtcode batch run`",
        )
    return record


def write_run(out_dir: Path, record: RunRecord) -> None:
    """Write run.json atomically."""
    atomic_write(out_dir / RUN_FILE, encode_run(record))


def _patch(out_dir: Path, task_id: str) -> bytes:
    try:
        return (task_dir(out_dir, task_id) / PATCH_FILE).read_bytes()
    except OSError:
        return b""


def write_predictions(out_dir: Path, ids: list[str], name: str) -> int:
    """Rebuild preds.json and preds.jsonl from the results in the folder; the number of predictions."""
    states = read_states(out_dir, ids)
    pairs: list[tuple[TaskResult, bytes]] = [
        (state, _patch(out_dir, task_id))
        for task_id, state in states.items()
        if isinstance(state, TaskResult)
    ]
    preds = predictions(pairs, name)
    atomic_write(out_dir / PREDS_JSON, preds_json(preds))
    atomic_write(out_dir / PREDS_JSONL, preds_jsonl(preds))
    return len(preds)


def write_summary(out_dir: Path, ids: list[str]) -> BatchSummary:
    """Rebuild summary.json from the results in the folder."""
    summary = summarize(ids, read_states(out_dir, ids))
    atomic_write(out_dir / SUMMARY_FILE, encode_summary(summary))
    return summary


def write_trajectories(out_dir: Path, ids: list[str]) -> int:
    """(Re)write every task's trajectory.json from its events.jsonl; how many were written."""
    written = 0
    for task_id, state in read_states(out_dir, ids).items():
        if not isinstance(state, TaskResult):
            continue
        folder = task_dir(out_dir, task_id)
        try:
            events = (folder / EVENTS_FILE).read_bytes()
        except OSError:
            continue
        try:
            instruction = (folder / INSTRUCTION_FILE).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            instruction = ""
        data = trajectory_json(events, task_id=task_id, model=state.model, instruction=instruction)
        atomic_write(folder / TRAJECTORY_FILE, data)
        written += 1
    return written
