"""The one per-task function every backend runs, and the driver's writing of its artifacts.

`run_task` makes the task's workspace (a checkout or a copy) and its own VTCODE_HOME under
`job.work_root/<id>/`, runs the setup commands, then `vtcode exec --json` as a child in its own
process group (commands under vtcode's sandbox, network off unless the job allows it), takes the patch,
runs the eval command in the same sandbox, and returns every artifact as bytes. It writes nothing to
the output folder: `write_outcome`, called by the driver of each backend, does, with `result.json`
last and atomic, so a task folder with a readable result is complete.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections.abc import Callable
from pathlib import Path

from vtcode import __version__
from vtcode.batch.layout import (
    EVAL_LOG,
    EVENTS_FILE,
    HOME_FOLDER,
    INSTRUCTION_FILE,
    PATCH_FILE,
    RESULT_FILE,
    SETUP_LOG,
    STDERR_FILE,
    TRAJECTORY_FILE,
    WORKSPACE_FOLDER,
    task_dir,
)
from vtcode.batch.trajectory import trajectory_json
from vtcode.core.batch.events_digest import digest_events
from vtcode.core.batch.job import EvalResult, TaskError, TaskJob, TaskLogs, TaskStatus
from vtcode.core.batch.result import TaskOutcome, TaskResult, encode_result
from vtcode.exec.task_process import ChildRun, TaskControl, run_child
from vtcode.exec.task_workspace import (
    WorkspaceError,
    checkout_mirror,
    commit_base,
    copy_folder,
    remove_tree,
    workspace_patch,
)
from vtcode.store.atomic import atomic_write, sync_folder, write_synced

__all__ = [
    "TaskControl",
    "TaskJob",
    "TaskOutcome",
    "run_task",
    "run_task_blocking",
    "write_outcome",
]


def _status_of(run: ChildRun) -> TaskStatus:
    if run.timed_out:
        return "timeout"
    if run.interrupted or run.killed or run.exit_code == 130:
        return "interrupted"
    if run.exit_code == 0:
        return "completed"
    if run.exit_code == 1:
        return "failed"
    return "error"


def _in_task(job: TaskJob, workspace: Path) -> list[str]:
    """The flags that put a vtcode command in the task's workspace, sandbox and network setting."""
    mode = ["--sandbox", job.sandbox_mode] if job.sandbox_mode else []
    network = "true" if job.network else "false"
    return ["-C", str(workspace), "-c", f"sandbox.network={network}", *mode]


def _sandbox_argv(job: TaskJob, workspace: Path, command: str) -> list[str]:
    """`vtcode sandbox` running `command` in the task's workspace under the task's sandbox."""
    return [*job.vtcode_argv, "sandbox", *_in_task(job, workspace), "--", "sh", "-c", command]


def _exec_argv(job: TaskJob, workspace: Path) -> list[str]:
    """`vtcode exec --json` in the workspace; the instruction comes on stdin (no argv length limit)."""
    return [*job.vtcode_argv, "exec", "--json", *_in_task(job, workspace), *job.model_args]


def _make_scratch(job: TaskJob) -> Path:
    """A fresh scratch folder `work/<id>` (a leftover of an earlier, killed run is removed first)."""
    scratch = Path(job.work_root) / job.task.id
    remove_tree(scratch)
    home = scratch / HOME_FOLDER
    home.mkdir(parents=True)
    if job.task.repo is None:
        (scratch / WORKSPACE_FOLDER).mkdir()
    if job.user_config is not None:
        (home / "vtcode.toml").write_bytes(job.user_config)
    for name in (EVENTS_FILE, STDERR_FILE, SETUP_LOG):
        (scratch / name).touch()
    return scratch


def _read_logs(scratch: Path) -> TaskLogs:
    """The logs the task's processes wrote in its scratch folder (empty where one never ran)."""
    return TaskLogs(
        events=_read(scratch / EVENTS_FILE),
        stderr=_read(scratch / STDERR_FILE),
        setup=_read(scratch / SETUP_LOG),
        eval=_read(scratch / EVAL_LOG),
    )


async def _prepare(job: TaskJob, workspace: Path) -> str:
    repo = job.task.repo
    if repo is None:
        return await commit_base(workspace, job.env)
    if repo.git is not None:
        assert repo.commit is not None
        return await checkout_mirror(repo.git, repo.commit, workspace, job.env)
    assert repo.path is not None
    return await copy_folder(repo.path, workspace, job.env)


def _last_line(data: bytes) -> str:
    lines = [line for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


async def run_task(
    job: TaskJob,
    control: TaskControl | None = None,
    *,
    on_line: Callable[[bytes], None] | None = None,
) -> TaskOutcome:
    """Run one task from a fresh workspace to its result; never raises for a task's own failure.

    `control` lets a local driver interrupt or kill it; `on_line` sees each event line as it arrives
    (the local backend's rate limiter reads retry notices there).
    """
    task = job.task
    started_at = time.time()
    begun = time.monotonic()
    scratch = await asyncio.to_thread(_make_scratch, job)
    workspace = scratch / WORKSPACE_FOLDER
    env = {**job.env, **task.env, "VTCODE_HOME": str(scratch / HOME_FOLDER)}
    status: TaskStatus = "error"
    exit_code: int | None = None
    error: TaskError | None = None
    patch = b""
    evaluated: EvalResult | None = None
    try:
        base = await _prepare(job, workspace)
        deadline = begun + job.timeout_s
        for number, command in enumerate(task.setup, 1):
            run = await run_child(
                _sandbox_argv(job, workspace, command),
                cwd=workspace,
                env=env,
                stdin=b"",
                stdout_path=scratch / SETUP_LOG,
                stderr_path=scratch / SETUP_LOG,
                timeout_s=max(0.0, deadline - time.monotonic()),
                grace_s=job.grace_s,
                control=control,
            )
            if run.exit_code != 0:
                stopped = run.timed_out or run.interrupted or run.killed
                status = _status_of(run) if stopped else "error"
                if not stopped:
                    error = TaskError(
                        kind="setup", message=f"setup command {number} exited with {run.exit_code}"
                    )
                exit_code = run.exit_code
                break
        else:
            run = await run_child(
                _exec_argv(job, workspace),
                cwd=workspace,
                env=env,
                stdin=task.instruction.encode(),
                stdout_path=scratch / EVENTS_FILE,
                stderr_path=scratch / STDERR_FILE,
                timeout_s=max(0.0, deadline - time.monotonic()),
                grace_s=job.grace_s,
                control=control,
                on_line=on_line,
            )
            status, exit_code = _status_of(run), run.exit_code
            patch = await workspace_patch(workspace, base, job.env)
            if task.eval is not None and status in ("completed", "failed", "timeout"):
                evaluated, stopped = await _evaluate(job, workspace, env, scratch / EVAL_LOG, control)
                if stopped:
                    # A verdict cut short by the user says nothing: the task runs again next time.
                    status = "interrupted"
    except WorkspaceError as exc:
        status, error = "error", TaskError(kind="workspace", message=str(exc))
    except OSError as exc:
        status, error = "error", TaskError(kind="start", message=f"could not start vtcode: {exc}")
    logs = await asyncio.to_thread(_read_logs, scratch)
    digest = digest_events(logs.events)
    if error is None and status != "completed":
        if status == "timeout":
            error = TaskError(kind="timeout", message=f"the task ran past its {job.timeout_s:g} s limit")
        elif status == "interrupted":
            error = TaskError(kind="interrupted", message="the batch was stopped")
        else:
            error = TaskError(
                kind=digest.failure_kind or "exit",
                message=digest.failure_message
                or _last_line(logs.stderr)
                or f"vtcode exited with {exit_code}",
            )
    kept: str | None = str(workspace)
    if status == "completed" and not job.keep_workspace:
        await asyncio.to_thread(remove_tree, scratch)
        kept = None
    spent = digest.spend
    result = TaskResult(
        id=task.id,
        instance_id=task.prediction_id,
        status=status,
        exit_code=exit_code,
        started_at=started_at,
        finished_at=time.time(),
        duration_s=time.monotonic() - begun,
        usage=spent.usage,
        cost_usd=spent.cost_usd,
        requests=spent.requests,
        model=spent.model,
        vtcode_version=__version__,
        backend=job.backend,
        attempt=job.attempt,
        patch_sha256=hashlib.sha256(patch).hexdigest(),
        patch_bytes=len(patch),
        eval=evaluated,
        error=error,
        workspace=kept,
    )
    return TaskOutcome(result=result, instruction=task.instruction, patch=patch, logs=logs)


def _read(path: Path) -> bytes:
    with contextlib.suppress(OSError):
        return path.read_bytes()
    return b""


async def _evaluate(
    job: TaskJob, workspace: Path, env: dict[str, str], log_path: Path, control: TaskControl | None
) -> tuple[EvalResult, bool]:
    """The eval command's verdict (run in the agent's sandbox), and whether the user stopped it."""
    assert job.task.eval is not None
    run = await run_child(
        _sandbox_argv(job, workspace, job.task.eval.command),
        cwd=workspace,
        env=env,
        stdin=b"",
        stdout_path=log_path,
        stderr_path=log_path,
        timeout_s=job.task.eval.timeout_s,
        grace_s=job.grace_s,
        control=control,
    )
    verdict = EvalResult(
        passed=run.exit_code == 0 and not run.timed_out, exit_code=run.exit_code, timed_out=run.timed_out
    )
    return verdict, run.interrupted or run.killed


def run_task_blocking(job: TaskJob) -> TaskOutcome:
    """`run_task` in an event loop of its own (a Ray worker, a thread, a plain script)."""
    return asyncio.run(run_task(job))


def write_outcome(out_dir: Path, outcome: TaskOutcome) -> Path:
    """Write a task's artifacts under `OUT/tasks/<id>/`, `result.json` last and atomically; its folder.

    Artifacts: events.jsonl, stderr.log, patch.diff, setup.log (when setup ran), eval.log (when an eval
    ran), instruction.txt, trajectory.json (ATIF, from the events).
    """
    result = outcome.result
    folder = task_dir(out_dir, result.id)
    folder.mkdir(parents=True, exist_ok=True)
    artifacts = {
        EVENTS_FILE: outcome.logs.events,
        STDERR_FILE: outcome.logs.stderr,
        PATCH_FILE: outcome.patch,
        INSTRUCTION_FILE: outcome.instruction.encode(),
        TRAJECTORY_FILE: trajectory_json(
            outcome.logs.events,
            task_id=result.id,
            model=result.model,
            instruction=outcome.instruction,
        ),
    }
    if outcome.logs.setup:
        artifacts[SETUP_LOG] = outcome.logs.setup
    if result.eval is not None:
        artifacts[EVAL_LOG] = outcome.logs.eval
    # Each artifact durable before result.json names the task done (one directory sync for them all).
    for name, data in artifacts.items():
        write_synced(folder / name, data)
    sync_folder(folder)
    atomic_write(folder / RESULT_FILE, encode_result(result))
    return folder
