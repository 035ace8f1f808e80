"""`vtcode exec`: one headless turn, a thin front end over the session runtime."""

from __future__ import annotations

import argparse
import asyncio
import signal

from vtcode.cli.inputs import read_prompt, workspace_dir
from vtcode.cli.render import HumanRenderer, JsonRenderer
from vtcode.config.environment import os_environ
from vtcode.config.hook_sources import load_hooks
from vtcode.config.loader import load_settings
from vtcode.protocol.errors import ExitCode, InterruptedByUser, VtcodeError
from vtcode.protocol.events import Event, TurnCompleted, TurnFailed
from vtcode.protocol.ops import Interrupt, Shutdown, UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions


def agent_flags(args: argparse.Namespace) -> dict[str, object]:
    """Dedicated flags as dotted config keys (the highest layer)."""
    pairs = {
        "agent.provider": args.provider,
        "agent.model": args.model,
        "agent.base_url": args.base_url,
        "agent.system_prompt_mode": args.profile,
        "agent.approval": args.approval,
        "agent.max_turns": args.max_turns,
        "sandbox.mode": args.sandbox,
    }
    return {key: value for key, value in pairs.items() if value is not None}


class TurnFailure(VtcodeError):
    """A failed turn as the user sees it: the message and hint of its `turn.failed` event."""

    def __init__(self, event: TurnFailed) -> None:
        super().__init__(event.message, hint=event.hint or None)
        self.exit_code = ExitCode(event.exit_code)

    def user_text(self) -> str:
        """Provider failures on one line (read in CI logs), others with the hint below."""
        if self.exit_code == ExitCode.PROVIDER and self.hint:
            return f"{self.message} ({self.hint})"
        return super().user_text()


def session_options(
    args: argparse.Namespace, overrides: list[str], *, headless: bool = True, until_idle: bool = False
) -> SessionOptions:
    """The session a command line asks for: workspace, layered settings, resume, MCP trust, warnings."""
    workspace = workspace_dir(args.workspace)
    env = os_environ()
    loaded = load_settings(workspace=workspace, env=env, overrides=overrides, flags=agent_flags(args))
    # Read before anything runs: a bad hook file is a config error (exit 2) like a bad vtcode.toml.
    hooks = load_hooks(loaded, workspace, trust_all=bool(getattr(args, "trust_workspace_hooks", False)))
    return SessionOptions(
        workspace=workspace,
        settings=loaded.settings,
        home=loaded.home,
        env=env,
        resume=args.resume,
        continue_last=args.continue_last,
        headless=headless,
        until_idle=until_idle,
        trust_project_mcp=bool(getattr(args, "trust_project_mcp", False)),
        config_warnings=(*loaded.warnings, *hooks.warnings, *loaded.notices),
        hooks=hooks.hooks,
    )


def run_exec(args: argparse.Namespace, overrides: list[str]) -> int:
    """Run one turn (and the follow-ups accepted meanwhile) and return the exit code."""
    prompt = read_prompt(args.prompt)
    options = session_options(args, overrides, until_idle=True)
    render = (
        JsonRenderer(deltas=bool(getattr(args, "json_deltas", False)))
        if args.json or getattr(args, "json_deltas", False)
        else HumanRenderer()
    )
    return asyncio.run(_run(options, prompt, render))


async def _run(options: SessionOptions, prompt: str, render: JsonRenderer | HumanRenderer) -> int:
    session = await Session.open(options)
    loop = asyncio.get_running_loop()
    signals: list[int] = []
    pending: set[asyncio.Task[None]] = set()

    def stop(signum: int) -> None:
        signals.append(signum)
        # A second signal kills command groups at once instead of waiting out their TERM grace.
        task = loop.create_task(session.submit(Interrupt(force=len(signals) > 1)))
        pending.add(task)
        task.add_done_callback(pending.discard)
        if not session.running:
            closing = loop.create_task(session.submit(Shutdown()))
            pending.add(closing)
            closing.add_done_callback(pending.discard)

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop, signum)
    ended: Event | None = None
    try:
        # Intents recovered on resume run first; the session ends once nothing is pending after a turn.
        await session.submit(UserInput(prompt))
        async for event in session.events():
            render(event)
            if isinstance(event, TurnCompleted | TurnFailed):
                ended = event
    finally:
        await session.aclose()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
    if isinstance(ended, TurnFailed):
        if ended.exit_code == ExitCode.INTERRUPTED:
            raise InterruptedByUser("interrupted")
        raise TurnFailure(ended)
    if ended is None:
        # Interrupted before the turn began.
        raise InterruptedByUser("interrupted")
    return ExitCode.OK
