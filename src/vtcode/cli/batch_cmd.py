"""`vtcode batch run|status|preds|atif`: the front end of the batch driver (vtcode.batch)."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path

import msgspec

from vtcode.batch.backend import BatchStop, default_workers
from vtcode.batch.layout import PREDS_JSON, PREDS_JSONL, TASKS_FOLDER, TRAJECTORY_FILE
from vtcode.batch.output import read_states, require_run, write_predictions, write_trajectories
from vtcode.batch.runner import BatchConfig, BatchReport, run_batch
from vtcode.cli.batch_progress import ProgressDisplay, status_text
from vtcode.config.environment import os_environ, resolve_home
from vtcode.core.batch.choice import DEFAULT_SEED, TaskChoice
from vtcode.core.batch.env import task_environment
from vtcode.core.batch.preds import model_name
from vtcode.core.batch.result import TaskResult
from vtcode.core.batch.run_record import ModelFlags
from vtcode.core.batch.status import ResumeOptions, status_of
from vtcode.core.batch.summary import summarize
from vtcode.protocol.errors import ConfigError, ExitCode, UsageError


def vtcode_argv() -> tuple[str, ...]:
    """How a task starts vtcode: this very program (the release binary, or this Python's module)."""
    if getattr(sys, "frozen", False):
        return (sys.executable,)
    return (sys.executable, "-m", "vtcode")


def _user_config(env: dict[str, str] | None = None) -> bytes | None:
    try:
        return (resolve_home(env or dict(os_environ())) / "vtcode.toml").read_bytes()
    except (OSError, ConfigError):
        return None


def _config(args: argparse.Namespace, overrides: list[str]) -> BatchConfig:
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.task_timeout <= 0 or args.grace < 0:
        raise UsageError("--timeout must be positive and --grace not negative")
    if args.seed is not None and not args.shuffle:
        raise UsageError("--seed goes with --shuffle")
    if args.format == "swebench" and not args.repos_dir:
        raise UsageError("--format swebench needs --repos-dir DIR (local git mirrors; nothing is fetched)")
    env = dict(os_environ())
    flags = ModelFlags(
        provider=getattr(args, "provider", None),
        model=getattr(args, "model", None),
        base_url=getattr(args, "base_url", None),
        approval=getattr(args, "approval", None) or "full-auto",
        max_turns=getattr(args, "max_turns", None),
        profile=getattr(args, "profile", None),
        sandbox=getattr(args, "sandbox", None),
        network=args.network == "on",
        config=tuple(overrides),
    )
    # RAY_ADDRESS is read here (not by Ray) so the backend can check it answers before joining.
    ray_address = args.ray_address or env.get("RAY_ADDRESS")
    extra = {"ray_address": ray_address} if ray_address else {}
    return BatchConfig(
        tasks_path=Path(args.tasks),
        out_dir=Path(args.output),
        vtcode_argv=vtcode_argv(),
        env=task_environment(env, args.pass_env),
        flags=flags,
        fmt=args.format,
        repos_dir=Path(args.repos_dir) if args.repos_dir else None,
        backend=args.backend,
        workers=args.workers or default_workers(),
        timeout_s=args.task_timeout,
        grace_s=args.grace,
        keep_workspaces=args.keep_workspaces,
        resume=ResumeOptions(retry_failed=args.retry_failed, redo_existing=args.redo_existing),
        choice=TaskChoice(
            filter=args.filter,
            slice=args.slice,
            shuffle=args.shuffle,
            seed=DEFAULT_SEED if args.seed is None else args.seed,
        ),
        force=args.force,
        user_config=_user_config(env),
        starts_per_minute=args.starts_per_minute,
        extra=extra,
    )


async def _run(config: BatchConfig, display: ProgressDisplay) -> BatchReport:
    stop = BatchStop()
    loop = asyncio.get_running_loop()

    def requested() -> None:
        display.stopping(stop.request())

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, requested)
    try:
        return await run_batch(config, stop, display.update)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)


def _run_command(args: argparse.Namespace, overrides: list[str]) -> int:
    config = _config(args, overrides)
    display = ProgressDisplay(sys.stderr)
    try:
        report = asyncio.run(_run(config, display))
    except ImportError as exc:
        raise UsageError(
            f"the {config.backend} backend is not available: {exc}",
            hint="install it with pip install 'vtcode[ray]'" if config.backend == "ray" else None,
        ) from None
    display.finish()
    counts = ", ".join(f"{count} {word}" for word, count in sorted(report.summary.counts.items()))
    sys.stdout.write(
        f"{report.summary.total} tasks ({counts}); ran {report.ran}, skipped {report.skipped}; "
        f"{report.predictions} predictions in {config.out_dir / PREDS_JSON}\n"
    )
    if report.interrupted:
        sys.stdout.write("interrupted: rerun the same command to finish the remaining tasks\n")
    return report.exit_code


def _status_command(args: argparse.Namespace) -> int:
    out = Path(args.out)
    record = require_run(out)
    ids = list(record.task_ids)
    states = read_states(out, ids)
    summary = summarize(ids, states)
    if args.json:
        tasks = [
            {
                "id": task_id,
                "status": status_of(state),
                "exit_code": state.exit_code if isinstance(state, TaskResult) else None,
                "duration_s": state.duration_s if isinstance(state, TaskResult) else None,
            }
            for task_id, state in states.items()
        ]
        payload = {**msgspec.structs.asdict(summary), "tasks": tasks}
        sys.stdout.write(msgspec.json.encode(payload).decode() + "\n")
    else:
        sys.stdout.write(status_text(summary))
    return int(ExitCode.OK)


def _preds_command(args: argparse.Namespace) -> int:
    out = Path(args.out)
    record = require_run(out)
    count = write_predictions(
        out, list(record.task_ids), model_name(record.flags.provider, record.flags.model)
    )
    sys.stdout.write(f"{count} predictions in {out / PREDS_JSON} and {out / PREDS_JSONL}\n")
    return int(ExitCode.OK)


def _atif_command(args: argparse.Namespace) -> int:
    out = Path(args.out)
    record = require_run(out)
    count = write_trajectories(out, list(record.task_ids))
    sys.stdout.write(f"{count} trajectories written ({TASKS_FOLDER}/<id>/{TRAJECTORY_FILE})\n")
    return int(ExitCode.OK)


def run_batch_command(args: argparse.Namespace, overrides: list[str]) -> int:
    """Dispatch `vtcode batch ACTION`."""
    match args.batch_command:
        case "run":
            return _run_command(args, overrides)
        case "status":
            return _status_command(args)
        case "preds":
            return _preds_command(args)
        case "atif":
            return _atif_command(args)
        case _:
            raise UsageError(
                "batch needs an action: run, status, preds or atif", hint="vtcode batch run --help"
            )
