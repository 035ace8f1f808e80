"""`vtcode rewind` and `vtcode checkpoints gc`: front ends over the runtime's rewind and checkpoint gc."""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from vtcode.cli.config_warnings import show_config_warnings
from vtcode.config.environment import os_environ, resolve_home
from vtcode.config.loader import load_settings
from vtcode.config.schema import Settings
from vtcode.core.rewind_plan import summary
from vtcode.protocol.errors import ExitCode, UsageError
from vtcode.runtime.checkpoint_gc import collect
from vtcode.runtime.checkpoints import NOT_COVERED
from vtcode.runtime.rewind import (
    RewindResult,
    RewindTarget,
    Scope,
    redo,
    rewind,
    turn_files,
    user_turns,
)
from vtcode.store.checkpoints import TurnRecord
from vtcode.store.session import SessionStore


def run_checkpoint_command(args: argparse.Namespace, overrides: list[str]) -> int:
    """Run `vtcode rewind ...` or `vtcode checkpoints gc`."""
    env = os_environ()
    loaded = load_settings(workspace=Path.cwd(), env=env, overrides=overrides)
    show_config_warnings(loaded.warnings)
    home = resolve_home(env)
    if args.command == "checkpoints":
        settings = loaded.settings.checkpoints
        quota = settings.quota_mb * 1024 * 1024
        report = collect(home, env, keep_days=settings.keep_days, clock=time.time, quota_bytes=quota)
        mib = 1024 * 1024
        sys.stdout.write(
            f"dropped the checkpoints of {report.sessions_dropped} idle session(s); checkpoints use "
            f"{report.bytes_after / mib:.1f} MiB (was {report.bytes_before / mib:.1f} MiB)\n"
        )
        return ExitCode.OK
    return _rewind(args, home, env, loaded.settings)


def _rewind(args: argparse.Namespace, home: Path, env: Mapping[str, str], settings: Settings) -> int:
    sessions = SessionStore(home, time.time, lambda: str(uuid.uuid4()))
    session_id = args.session and sessions.resolve_id(args.session)
    if session_id is None:
        session_id = sessions.latest_for_workspace(Path.cwd())
        if session_id is None:
            raise UsageError("no session of this workspace to rewind", hint="name one with --session ID")
    info = sessions.open(session_id).info
    target = RewindTarget(home, session_id, Path(info.workspace), env, time.time, lambda: str(uuid.uuid4()))
    covered = settings.checkpoints.tree and target.shadow().available
    if args.list:
        return _list(target, covered, as_json=args.json)
    if sessions.is_running(session_id):
        raise UsageError(f"session {session_id} is running", hint="rewind it after that run ends")
    scope = cast(Scope, args.scope or "both")
    if args.redo:
        result = redo(target, apply=args.yes, force=args.force)
    else:
        result = rewind(target, args.to, scope, apply=args.yes, force=args.force)
    _report(result, session_id, scope, applied=args.yes, as_json=args.json)
    if not covered:
        sys.stderr.write(f"note: {NOT_COVERED}\n")
    return ExitCode.OK


def _list(target: RewindTarget, covered: bool, *, as_json: bool) -> int:
    changed = turn_files(target.store)
    turns = user_turns(target)
    if as_json:
        payload = [{"turn": t.turn, "prompt": t.prompt, "files": changed.get(t.turn, [])} for t in turns]
        sys.stdout.write(json.dumps({"session": target.session_id, "turns": payload}, indent=2) + "\n")
        return ExitCode.OK
    if not turns:
        sys.stdout.write(f"session {target.session_id} has no checkpoints\n")
    sys.stdout.write(checkpoint_lines(turns, changed))
    if not covered:
        sys.stdout.write(f"note: {NOT_COVERED}\n")
    return ExitCode.OK


def _report(result: RewindResult, session_id: str, scope: str, *, applied: bool, as_json: bool) -> None:
    if as_json:
        payload: dict[str, Any] = {
            "session": session_id,
            "plan": [{"path": p.path, "action": p.action, "conflict": p.conflict} for p in result.planned],
            "applied": list(result.applied),
            "kept_conflicts": list(result.kept_conflicts),
            "failed": list(result.failed),
            "fork": result.fork_id,
            "prompt": result.turn.prompt if result.turn is not None else None,
            "finished_interrupted": result.finished_interrupted,
        }
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
        return
    out = sys.stdout.write
    if result.finished_interrupted:
        out("completed a restore that was interrupted\n")
    counts = summary(result.planned)
    if scope != "conversation":
        out(f"{counts['modify']} to modify, {counts['create']} to create, {counts['delete']} to delete\n")
        kept = set(result.kept_conflicts)
        for entry in result.planned:
            fate = "kept unless --force" if not applied else "kept" if entry.path in kept else "overwritten"
            flag = f"  CONFLICT: edited by hand since vtcode wrote it; {fate}" if entry.conflict else ""
            out(f"  {entry.action:<6} {entry.path}{flag}\n")
    if not applied:
        out("preview only: run again with --yes to apply\n")
        return
    if scope != "conversation":
        out(f"restored {len(result.applied)} file(s)\n")
    if result.kept_conflicts:
        many = len(result.kept_conflicts) > 1
        out(
            f"kept {len(result.kept_conflicts)} file{'s' if many else ''} edited by hand: "
            f"{', '.join(result.kept_conflicts)} (--force overwrites {'them' if many else 'it'})\n"
        )
    for path in result.failed:
        out(f"could not restore {path}: its content is not in the checkpoints\n")
    if result.fork_id is not None:
        out(
            f"the conversation continues in session {result.fork_id} (`vtcode exec --resume "
            f"{result.fork_id}`); the old branch stays resumable as {session_id}\n"
        )
    if result.turn is not None and scope != "code":
        out(f"the rewound prompt was:\n{result.turn.prompt}\n")


def checkpoint_lines(turns: Sequence[TurnRecord], changed: Mapping[int, Sequence[str]]) -> str:
    """One entry per checkpointed user turn: its prompt and the files it changed."""
    lines: list[str] = []
    for turn in turns:
        prompt = " ".join(turn.prompt.split())[:70]
        files = changed.get(turn.turn, [])
        shown = ", ".join(files[:8]) + (f" and {len(files) - 8} more" if len(files) > 8 else "")
        lines.append(f"turn {turn.turn:>3}  {prompt}\n          files changed: {shown or 'none'}\n")
    return "".join(lines)
