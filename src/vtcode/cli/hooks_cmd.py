"""`vtcode hooks list|trust|test`: every lifecycle hook, its trust, and a dry run of one event."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from vtcode.cli.inputs import workspace_dir
from vtcode.cli.subcommands import run_action
from vtcode.config.environment import os_environ
from vtcode.config.hook_sources import load_hooks
from vtcode.config.loader import load_settings
from vtcode.config.user_file import trust_hooks
from vtcode.core.hooks.model import HOOK_EVENTS, ConfiguredHook, HookEvent, HookSet
from vtcode.protocol.errors import ExitCode, UsageError
from vtcode.protocol.events import Event, HookCompleted
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.hook_dispatch import HookDispatch
from vtcode.runtime.hook_samples import sample_input, vtcode_tool

_INPUT_HINT = """e.g. --input '{"tool_input": {"command": "rm -rf build"}}'"""


def run_hooks(args: argparse.Namespace, overrides: list[str]) -> int:
    """Dispatch one `vtcode hooks` action."""
    return run_action("hooks", {"list": _list, "trust": _trust, "test": _test}, args, overrides)


def _load(args: argparse.Namespace, overrides: list[str]) -> tuple[Path, Path, HookSet]:
    workspace = workspace_dir(getattr(args, "workspace", None))
    loaded = load_settings(workspace=workspace, env=os_environ(), overrides=overrides)
    hooks = load_hooks(loaded, workspace, env=os_environ())
    for warning in hooks.warnings:
        sys.stderr.write(f"warning: {warning}\n")
    return workspace, loaded.home, hooks.hooks


def _row(hook: ConfiguredHook) -> dict[str, Any]:
    handler = hook.handler
    return {
        "event": hook.event,
        "matcher": hook.matcher,
        "command": handler.command,
        "args": list(handler.args) if handler.args is not None else None,
        "timeout": handler.timeout_for(hook.event),
        "on_failure": handler.on_failure,
        "if": handler.if_,
        "source": hook.source.kind,
        "source_path": hook.source.path,
        "digest": hook.digest or None,
        "trust": "user" if not hook.source.needs_trust else ("trusted" if hook.trusted else "untrusted"),
    }


def _list(args: argparse.Namespace, overrides: list[str]) -> int:
    workspace, _, hooks = _load(args, overrides)
    rows = [_row(hook) for hook in hooks.hooks]
    if args.json:
        sys.stdout.write(json.dumps({"workspace": str(workspace), "hooks": rows}, indent=2) + "\n")
        return ExitCode.OK
    if not rows:
        sys.stdout.write("no hooks configured (see [[hooks.EVENT]] in vtcode.toml or .vtcode/hooks.json)\n")
    for row, hook in zip(rows, hooks.hooks, strict=True):
        matcher = f" [{row['matcher']}]" if row["matcher"] else ""
        matcher += f" if {row['if']}" if row["if"] else ""
        sys.stdout.write(f"{row['event']}{matcher}: {hook.handler.display}\n")
        digest = f" {row['digest'][:12]}" if row["digest"] else ""
        sys.stdout.write(f"    {row['trust']}{digest}  from {row['source_path']}\n")
    untrusted = len(hooks.untrusted)
    if untrusted:
        sys.stdout.write(f"\n{untrusted} hook(s) will not run until trusted: `vtcode hooks trust`\n")
    return ExitCode.OK


def _trust(args: argparse.Namespace, overrides: list[str]) -> int:
    workspace, home, hooks = _load(args, overrides)
    wanted = [
        h for h in hooks.untrusted if not args.digest or any(h.digest.startswith(d) for d in args.digest)
    ]
    if args.digest and not wanted:
        raise UsageError(
            f"no untrusted hook has a digest starting with {', '.join(args.digest)}",
            hint="list the hooks and their digests with `vtcode hooks list`",
        )
    if not wanted:
        sys.stdout.write("every hook of this workspace is trusted already\n")
        return ExitCode.OK
    path = trust_hooks(home, workspace, (h.digest for h in wanted))
    for hook in wanted:
        sys.stdout.write(
            f"trusted {hook.event}: {hook.handler.display} ({hook.digest[:12]}, {hook.source.path})\n"
        )
    sys.stdout.write(f"recorded in {path}; a change to a hook or its script asks again\n")
    return ExitCode.OK


def _test(args: argparse.Namespace, overrides: list[str]) -> int:
    event = _event(args.event)
    workspace, _, hooks = _load(args, overrides)
    events: list[Event] = []
    emitter = Emitter()
    emitter.subscribe(events.append)
    dispatch = HookDispatch(
        hooks.runnable,
        workspace=workspace,
        env=os_environ(),
        emitter=emitter,
        session_id="hooks-test",
        model="",
    )
    tool = vtcode_tool(args.tool) if args.tool else None
    payload = sample_input(event, tool, _input(args.input))
    combined = asyncio.run(dispatch.fire(event, payload, tool=tool, subject=tool))
    runs = [_run_row(e) for e in events if isinstance(e, HookCompleted)]
    result = {"event": event, "decision": combined.decision, "reason": combined.reason, "runs": runs}
    if args.json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return ExitCode.OK
    if not runs:
        sys.stdout.write(
            f"no trusted hook runs for {event}" + (f" on {args.tool}" if args.tool else "") + "\n"
        )
    for run in runs:
        decision = f" {run['decision']}" if run["decision"] else ""
        message = f": {run['message']}" if run["message"] else ""
        sys.stdout.write(f"{run['command']}: {run['outcome']}{decision} ({run['duration_ms']} ms){message}\n")
    for hook in hooks.untrusted:
        if hook.event == event:
            sys.stdout.write(f"not run (untrusted): {hook.handler.display}\n")
    return ExitCode.OK


def _input(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--input: not JSON: {exc}", hint=_INPUT_HINT) from None
    if not isinstance(value, dict):
        raise UsageError("--input: expected a JSON object", hint=_INPUT_HINT)
    return value


def _run_row(event: HookCompleted) -> dict[str, Any]:
    return {
        "command": event.command,
        "source": event.source,
        "outcome": event.outcome,
        "decision": event.decision,
        "duration_ms": event.duration_ms,
        "message": event.message,
    }


def _event(name: str) -> HookEvent:
    for event in HOOK_EVENTS:
        if event == name or event.lower() == name.lower().replace("_", ""):
            return event
    raise UsageError(f"unknown hook event {name!r}", hint=f"one of {', '.join(HOOK_EVENTS)}")
