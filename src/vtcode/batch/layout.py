"""The batch output folder's layout: every file and folder name, once (reference batch-scale.md 8.4).

OUT/run.json                    what the folder was made from (`core.batch.run_record`)
OUT/tasks/<id>/                 one task's artifacts; result.json, written last, marks it done
OUT/tasks/<id>.stale-<n>/       an earlier run of the task, set aside (never deleted)
OUT/preds.json, preds.jsonl     the SWE-bench predictions, rebuilt from the results
OUT/summary.json                counts by status, tokens, cost, durations
OUT/work/<id>/                  a task's scratch on its worker: repo/ (the workspace), home/ (its
                                VTCODE_HOME) and the logs its processes write, under the names its
                                task folder then keeps them by
"""

from __future__ import annotations

from pathlib import Path

RUN_FILE = "run.json"
TASKS_FOLDER = "tasks"
WORK_FOLDER = "work"
PREDS_JSON = "preds.json"
PREDS_JSONL = "preds.jsonl"
SUMMARY_FILE = "summary.json"

# A task folder's files. The four logs are written in `work/<id>/` while the task runs.
RESULT_FILE = "result.json"
EVENTS_FILE = "events.jsonl"
STDERR_FILE = "stderr.log"
SETUP_LOG = "setup.log"
EVAL_LOG = "eval.log"
PATCH_FILE = "patch.diff"
INSTRUCTION_FILE = "instruction.txt"
TRAJECTORY_FILE = "trajectory.json"

# Only in a task's scratch folder `work/<id>/`.
WORKSPACE_FOLDER = "repo"
HOME_FOLDER = "home"


def task_dir(out_dir: Path, task_id: str) -> Path:
    """`OUT/tasks/<id>`."""
    return out_dir / TASKS_FOLDER / task_id
