"""`vtcode exec`: one headless turn."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path

from vtcode.cli.render import HumanRenderer, JsonRenderer
from vtcode.config.environment import os_environ
from vtcode.config.loader import load_settings
from vtcode.exec.process_group import kill_all_groups
from vtcode.protocol.errors import ExitCode, InterruptedByUser, ProviderError, UsageError, VtcodeError
from vtcode.protocol.events import TurnFailed
from vtcode.runtime.agent import Agent, AgentOptions
from vtcode.runtime.emitter import Emitter


def read_prompt(value: str | None) -> str:
    """The prompt argument, or stdin for `-`."""
    if value is None:
        raise UsageError("exec needs a PROMPT", hint="vtcode exec 'fix the failing test'  (or - for stdin)")
    if value == "-":
        # Bytes, decoded leniently: a stray invalid byte in piped input must not end the run.
        text = sys.stdin.buffer.read().decode("utf-8", "replace")
    else:
        # argv carries undecodable bytes as lone surrogates, which nothing downstream can encode.
        text = value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    if not text.strip():
        raise UsageError("the prompt is empty")
    return text


def workspace_dir(value: str | None) -> Path:
    """The workspace as an absolute path; it must be an existing directory."""
    path = Path(value).expanduser() if value else Path.cwd()
    path = path.resolve()
    if not path.is_dir():
        raise UsageError(f"workspace {path} is not a directory")
    return path


def agent_flags(args: argparse.Namespace) -> dict[str, object]:
    """Dedicated flags as dotted config keys (the highest layer)."""
    pairs = {
        "agent.provider": args.provider,
        "agent.model": args.model,
        "agent.base_url": args.base_url,
        "agent.system_prompt_mode": args.profile,
        "agent.approval": args.approval,
        "agent.max_turns": args.max_turns,
    }
    return {key: value for key, value in pairs.items() if value is not None}


def run_exec(args: argparse.Namespace, overrides: list[str]) -> int:
    """Run one turn and return the exit code."""
    prompt = read_prompt(args.prompt)
    workspace = workspace_dir(args.workspace)
    env = os_environ()
    loaded = load_settings(workspace=workspace, env=env, overrides=overrides, flags=agent_flags(args))
    json_mode = bool(args.json)
    json_renderer = JsonRenderer() if json_mode else None
    human = None if json_mode else HumanRenderer()
    emitter = Emitter(
        sinks=[json_renderer or human],  # type: ignore[list-item]
        deltas=human.delta if human else None,
    )
    options = AgentOptions(
        workspace=workspace,
        settings=loaded.settings,
        home=loaded.home,
        env=env,
        resume=args.resume,
        continue_last=args.continue_last,
        config_warnings=loaded.warnings,
    )
    agent = Agent(options, emitter)
    try:
        return asyncio.run(_run(agent, prompt, emitter))
    finally:
        kill_all_groups()


async def _run(agent: Agent, prompt: str, emitter: Emitter) -> int:
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    signalled: list[int] = []

    def stop(signum: int) -> None:
        signalled.append(signum)
        task.cancel()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop, signum)
    try:
        await agent.run(prompt)
        return ExitCode.OK
    except asyncio.CancelledError:
        if not signalled:
            raise
        # Undo the cancellation so cleanup below can await; the history is already consistent.
        task.uncancel()
        emitter.emit(TurnFailed(kind="interrupted", message="interrupted by the user"))
        raise InterruptedByUser("interrupted") from None
    except ProviderError as exc:
        emitter.emit(TurnFailed(kind=str(exc.kind), message=exc.message))
        raise
    except VtcodeError as exc:
        emitter.emit(TurnFailed(kind=type(exc).__name__, message=exc.message))
        raise
    finally:
        # A second signal during cleanup must not cut the kill grace of command groups short.
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, signalled.append, signum)
        with contextlib.suppress(Exception):
            await agent.aclose()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
