"""What one task run takes: plain, picklable data shared by every backend, and the parts of its outcome.

A `TaskJob` holds everything a worker needs (no live objects, no paths to the driver's output), so
the same job runs in a local asyncio task or in a Ray worker on another node; a `TaskOutcome`
(`core.batch.result`) carries its result record and artifacts back, and the driver alone writes them
(`batch.task_run.write_outcome`).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from vtcode.core.batch.tasks import TaskSpec
from vtcode.protocol.messages import Usage

TaskStatus = Literal["completed", "failed", "timeout", "error", "interrupted"]
TASK_STATUSES: tuple[TaskStatus, ...] = ("completed", "failed", "timeout", "error", "interrupted")

DEFAULT_TIMEOUT_S = 1800.0
DEFAULT_GRACE_S = 10.0


class TaskJob(msgspec.Struct, frozen=True, kw_only=True):
    """One task as a worker runs it.

    `vtcode_argv` starts vtcode (`("vtcode",)` or `(python, "-m", "vtcode")`); `model_args` are the
    `exec` flags every task shares (provider, model, approval, -c overrides). `env` is the child's whole
    environment, already reduced to the allowlist (provider keys included: never logged, never written).
    `work_root` is where the worker makes `<id>/repo` (the workspace) and `<id>/home` (its VTCODE_HOME).
    """

    task: TaskSpec
    vtcode_argv: tuple[str, ...]
    model_args: tuple[str, ...] = ()
    env: dict[str, str] = msgspec.field(default_factory=dict)
    timeout_s: float = DEFAULT_TIMEOUT_S
    grace_s: float = DEFAULT_GRACE_S
    work_root: str = ""
    network: bool = False
    # `--sandbox` for the task's commands (agent, setup, eval); None: vtcode's configured default.
    sandbox_mode: str | None = None
    keep_workspace: bool = False
    # The user's vtcode.toml, copied into each task's VTCODE_HOME (the worker may be on another node).
    user_config: bytes | None = None
    # Which run of this task this is within the output folder (1 for the first).
    attempt: int = 1
    # The backend that runs it ("local", "ray"), as its result record names it.
    backend: str = "local"


class EvalResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The eval command's verdict, as result.json keeps it (its output is `eval.log`)."""

    passed: bool
    exit_code: int | None = None
    timed_out: bool = False


class TaskLogs(msgspec.Struct, frozen=True, kw_only=True):
    """What the task's processes wrote: vtcode's `--json` events, its stderr, the setup and eval output."""

    events: bytes = b""
    stderr: bytes = b""
    setup: bytes = b""
    eval: bytes = b""


class Spend(msgspec.Struct, frozen=True, kw_only=True):
    """What a task's run spent, as its `usage` event says: tokens, cost, requests and the model used."""

    usage: Usage = Usage()
    cost_usd: float | None = None
    requests: int = 0
    model: str = ""


class TaskError(msgspec.Struct, frozen=True, kw_only=True):
    """Why a task did not complete: a failure kind (`turn.failed` kinds, or workspace/setup/timeout...)."""

    kind: str
    message: str = ""
