"""Start the TUI: settings, session options, signals, and a terminal left as it was found."""

from __future__ import annotations

import argparse
import logging

from textual.worker import WorkerFailed

from vtcode.cli.exec_cmd import session_options as cli_session_options
from vtcode.protocol.errors import ExitCode, VtcodeError
from vtcode.runtime.wiring import SessionOptions
from vtcode.tui.app import VtcodeApp

log = logging.getLogger(__name__)


class InternalError(VtcodeError):
    """The TUI stopped on a bug; the terminal is restored and the error told in one line."""

    exit_code = ExitCode.AGENT_FAILED


def session_options(args: argparse.Namespace, overrides: list[str]) -> SessionOptions:
    """What the command line asked for; the TUI answers approvals itself (not headless)."""
    return cli_session_options(args, overrides, headless=False)


def run_tui(args: argparse.Namespace, overrides: list[str], prompt: str | None) -> int:
    """Run the app until the user quits (or SIGTERM / SIGHUP); a crash is one line, never a traceback."""
    return run_app(VtcodeApp(session_options(args, overrides), prompt=prompt))


def run_app(app: VtcodeApp) -> int:
    """Run `app`; a crash restores the terminal first and then raises `InternalError` (one line)."""
    code = app.run()
    if app.crash is None and app.resumable is not None:
        # The terminal is restored by now: the conversation and this line stay in its scrollback.
        print(app.farewell, end="")
        print(f"vtcode: resume this session with: vtcode --resume {app.resumable}")
    if app.crash is not None:
        log.debug("the TUI stopped", exc_info=app.crash)
        crash = app.crash
        if isinstance(crash, WorkerFailed):
            crash = crash.error
        raise InternalError(
            f"internal error: {type(crash).__name__}: {crash}",
            hint="rerun with VTCODE_DEBUG=1 for details and report it",
        )
    return int(code or 0)
