"""Start the TUI: settings, session options, signals, and a terminal left as it was found."""

from __future__ import annotations

import contextlib
import logging

from textual.worker import WorkerFailed

from vtcode.protocol.errors import ExitCode, VtcodeError
from vtcode.runtime.session_config import SessionRequest, session_options
from vtcode.tui.app import VtcodeApp

log = logging.getLogger(__name__)


class InternalError(VtcodeError):
    """The TUI stopped on a bug; the terminal is restored and the error told in one line."""

    exit_code = ExitCode.AGENT_FAILED


def run_tui(request: SessionRequest, prompt: str | None) -> int:
    """Run the app until the user quits (or SIGTERM / SIGHUP); a crash is one line, never a traceback."""
    # The TUI answers approvals itself (not headless).
    return run_app(VtcodeApp(session_options(request, headless=False), prompt=prompt))


def run_app(app: VtcodeApp) -> int:
    """Run `app`; a crash restores the terminal first and then raises `InternalError` (one line)."""
    code = app.run()
    if app.crash is None and app.resumable is not None:
        # The terminal is restored by now: the conversation and this line stay in its scrollback. It may
        # also be gone (SIGHUP): then nobody reads them, and the failed write must not end in a traceback.
        with contextlib.suppress(OSError):
            print(app.farewell, end="")
            print(f"vtcode: resume this session with: vtcode --resume {app.resumable}", flush=True)
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
