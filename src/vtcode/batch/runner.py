"""The batch driver: validate the tasks, pin the folder, pick what runs, run it, rebuild predictions.

Only the driver writes the output folder (whatever the backend), one task folder at a time as each
outcome arrives, so a killed driver leaves complete task folders and at most some without a result,
which the next run sets aside and redoes.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from vtcode import __version__
from vtcode.batch.backend import BackendOptions, BatchStop, backend_named
from vtcode.batch.layout import WORK_FOLDER
from vtcode.batch.output import (
    earlier_attempts,
    read_run,
    read_states,
    set_aside,
    write_predictions,
    write_run,
    write_summary,
)
from vtcode.batch.task_run import TaskJob, TaskOutcome, write_outcome
from vtcode.core.batch.choice import TaskChoice, choose
from vtcode.core.batch.job import DEFAULT_GRACE_S, DEFAULT_TIMEOUT_S
from vtcode.core.batch.preds import model_name
from vtcode.core.batch.result import TaskResult
from vtcode.core.batch.run_record import ModelFlags, RunRecord, check_resume
from vtcode.core.batch.status import ResumeOptions, select
from vtcode.core.batch.summary import BatchSummary, summarize
from vtcode.core.batch.tasks import TaskSpec, parse_tasks, swebench_mirror_names, swebench_repos
from vtcode.protocol.errors import ExitCode, UsageError


@dataclass(frozen=True)
class BatchConfig:
    """Everything `vtcode batch run` was asked to do."""

    tasks_path: Path
    out_dir: Path
    vtcode_argv: tuple[str, ...]
    env: dict[str, str]
    flags: ModelFlags = field(default_factory=ModelFlags)
    fmt: str = "vtcode"
    repos_dir: Path | None = None
    backend: str = "local"
    workers: int = 1
    timeout_s: float = DEFAULT_TIMEOUT_S
    grace_s: float = DEFAULT_GRACE_S
    keep_workspaces: bool = False
    resume: ResumeOptions = field(default_factory=ResumeOptions)
    choice: TaskChoice = field(default_factory=TaskChoice)
    force: bool = False
    user_config: bytes | None = None
    stagger_s: float = 0.3
    starts_per_minute: float | None = None
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class Progress:
    """What a display shows while a batch runs; `last` is the result that just arrived (if any)."""

    total: int
    skipped: int
    started_at: float
    done: int = 0
    running: int = 0
    failed: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    last: TaskResult | None = None


@dataclass(frozen=True)
class BatchReport:
    """How a `batch run` ended."""

    summary: BatchSummary
    predictions: int
    ran: int
    skipped: int
    interrupted: bool
    exit_code: int


def model_args(flags: ModelFlags) -> tuple[str, ...]:
    """The `vtcode exec` flags of the pinned settings (sandbox and network are passed separately)."""
    args: list[str] = []
    for option, value in (
        ("--provider", flags.provider),
        ("--model", flags.model),
        ("--base-url", flags.base_url),
        ("--approval", flags.approval),
        ("--profile", flags.profile),
        ("--max-turns", None if flags.max_turns is None else str(flags.max_turns)),
    ):
        if value is not None:
            args += [option, value]
    for pair in flags.config:
        args += ["-c", pair]
    return tuple(args)


def _mirrors(repos_dir: Path | None, names: list[str]) -> dict[str, str]:
    if repos_dir is None:
        return {}
    found: dict[str, str] = {}
    for repo in names:
        for candidate in swebench_mirror_names(repo):
            path = repos_dir / candidate
            if path.is_dir():
                found[repo] = str(path.resolve())
                break
    return found


def _anchored(task: TaskSpec, base: Path) -> TaskSpec:
    """Relative repo paths are relative to the tasks file's folder."""
    repo = task.repo
    if repo is None:
        return task
    path = None if repo.path is None else str((base / repo.path).resolve())
    git = None if repo.git is None else str((base / repo.git).resolve())
    return msgspec.structs.replace(task, repo=msgspec.structs.replace(repo, path=path, git=git))


def load_tasks(config: BatchConfig) -> tuple[list[TaskSpec], bytes]:
    """The validated tasks and the file's bytes; UsageError naming every problem."""
    try:
        data = config.tasks_path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{config.tasks_path}: {exc.strerror or exc}") from None
    source = str(config.tasks_path)
    if config.fmt == "swebench":
        if config.repos_dir is None or not config.repos_dir.is_dir():
            raise UsageError(
                "--format swebench needs --repos-dir DIR, a folder of local git mirrors",
                hint="e.g. DIR/django__django.git for repo django/django (nothing is fetched)",
            )
        mirrors = _mirrors(config.repos_dir, swebench_repos(data, source=source))
        return parse_tasks(data, source=source, fmt="swebench", mirrors=mirrors), data
    base = config.tasks_path.resolve().parent
    return [_anchored(task, base) for task in parse_tasks(data, source=source)], data


def _record(config: BatchConfig, tasks: list[TaskSpec], data: bytes, previous: RunRecord | None) -> RunRecord:
    now = time.time()
    return RunRecord(
        vtcode_version=__version__,
        tasks_file=str(config.tasks_path),
        tasks_sha256=hashlib.sha256(data).hexdigest(),
        format=config.fmt,
        flags=config.flags,
        task_ids=tuple(task.id for task in tasks),
        created_at=previous.created_at if previous else now,
        updated_at=now,
        runs=previous.runs + 1 if previous else 1,
        backend=config.backend,
        workers=config.workers,
        timeout_s=config.timeout_s,
    )


def exit_code_of(summary: BatchSummary, interrupted: bool) -> int:
    """130 when stopped; 4 when provider errors remain; 1 when any task is not completed; else 0."""
    if interrupted:
        return int(ExitCode.INTERRUPTED)
    counts = summary.counts
    if counts.get("completed", 0) == summary.total:
        return int(ExitCode.OK)
    if counts.get("error", 0):
        return int(ExitCode.PROVIDER) if summary.provider_errors else int(ExitCode.AGENT_FAILED)
    return int(ExitCode.AGENT_FAILED)


async def run_batch(
    config: BatchConfig, stop: BatchStop, progress: Callable[[Progress], None] | None = None
) -> BatchReport:
    """Run the batch `config` describes in its output folder (resuming it) and report how it ended."""
    tasks, data = load_tasks(config)
    ids = [task.id for task in tasks]
    # The folder belongs to the whole file (run.json, status, predictions); the choice says what runs now.
    chosen = choose(ids, config.choice)
    config.out_dir.mkdir(parents=True, exist_ok=True)
    previous = read_run(config.out_dir)
    record = _record(config, tasks, data, previous)
    if previous is not None:
        check_resume(previous, record, force=config.force)
    backend = backend_named(config.backend, _backend_options(config))
    write_run(config.out_dir, record)
    selection = select(chosen, read_states(config.out_dir, chosen), config.resume)
    for task_id in selection.set_aside:
        set_aside(config.out_dir, task_id)
    by_id = {task.id: task for task in tasks}
    work_root = str((config.out_dir / WORK_FOLDER).resolve())
    args = model_args(config.flags)
    jobs = [
        TaskJob(
            task=by_id[task_id],
            vtcode_argv=config.vtcode_argv,
            model_args=args,
            env=config.env,
            timeout_s=config.timeout_s,
            grace_s=config.grace_s,
            work_root=work_root,
            network=config.flags.network,
            sandbox_mode=config.flags.sandbox,
            keep_workspace=config.keep_workspaces,
            user_config=config.user_config,
            attempt=earlier_attempts(config.out_dir, task_id) + 1,
            backend=backend.name,
        )
        for task_id in selection.run
    ]
    state = Progress(total=len(chosen), skipped=len(selection.skip), started_at=time.monotonic())

    def started(_job: TaskJob) -> None:
        state.running += 1
        if progress is not None:
            progress(state)

    async def done(outcome: TaskOutcome) -> None:
        write_outcome(config.out_dir, outcome)
        result = outcome.result
        state.running = max(0, state.running - 1)
        state.done += 1
        state.failed += result.status != "completed"
        state.tokens += result.usage.input_tokens + result.usage.output_tokens
        state.cost_usd += result.cost_usd or 0.0
        state.last = result
        if progress is not None:
            progress(state)

    if jobs:
        await backend.run(jobs, done, stop, started)
    name = model_name(config.flags.provider, config.flags.model)
    count = write_predictions(config.out_dir, ids, name)
    summary = write_summary(config.out_dir, ids)
    write_run(config.out_dir, msgspec.structs.replace(record, finished_at=time.time()))
    interrupted = stop.interrupting.is_set()
    # The exit code speaks of the tasks this run was asked to do.
    asked = summary if chosen == ids else summarize(chosen, read_states(config.out_dir, chosen))
    return BatchReport(
        summary=summary,
        predictions=count,
        ran=state.done,
        skipped=len(selection.skip),
        interrupted=interrupted,
        exit_code=exit_code_of(asked, interrupted),
    )


def _backend_options(config: BatchConfig) -> BackendOptions:
    return BackendOptions(
        workers=config.workers,
        stagger_s=config.stagger_s,
        starts_per_minute=config.starts_per_minute,
        extra=dict(config.extra),
    )
