"""A stretch in which the app did not run is not a pause: keys typed during it never answer a dialog.

On a loaded machine (or a stopped process) the keys typed meanwhile wait unread in the terminal, and a
timer that came due during the stall runs before they are read. Here the stall is the event loop
blocked past the grace period; the key typed during it is delivered only after the due timer had its
turn, as the terminal delivers it after a real stall.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot

from tests.tui.tui_helpers import running_app, screen_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.approval import ApprovalScreen
from vtcode.tui.confirm_dialog import GRACE_SECONDS


def _script() -> list[Reply]:
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "touch typed.txt"}), id="c1")
    return [Reply(tool_calls=(call,)), Reply(text="first turn done")]


async def _approval_asked(app: VtcodeApp, pilot: Pilot[Any]) -> ApprovalScreen:
    """Start the turn whose command needs approval; its dialog once it shows."""
    await pilot.press("g", "o", "enter")
    await until(pilot, lambda: isinstance(app.screen, ApprovalScreen), "the dialog")
    screen = app.screen
    assert isinstance(screen, ApprovalScreen)
    return screen


def _stall_the_app(seconds: float) -> None:
    """Block the event loop, as a process that gets no CPU (or is stopped) does not run."""
    time.sleep(seconds)


async def test_a_key_typed_while_the_app_stalled_past_the_grace_period_does_not_answer_the_dialog(
    tmp_path: Path,
) -> None:
    with server_for("chat", _script()) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            dialog = await _approval_asked(app, pilot)
            assert not dialog.armed
            # The app gets no CPU for longer than the grace period (the loop is blocked): the user's
            # `y` is typed meanwhile, but read only after the timers that came due have run.
            _stall_the_app(GRACE_SECONDS + 0.5)
            for _ in range(20):
                await asyncio.sleep(0)
            assert not dialog.armed
            await pilot.press("y")
            assert app.screen is dialog
            assert app.composer.text == "y"
            session = app.session
            assert session is not None
            assert not session.grants
            # A real pause arms it as before; Esc denies.
            await until(pilot, lambda: dialog.armed, "the dialog to arm")
            await pilot.press("escape")
            await until(pilot, lambda: "first turn done" in screen_text(app), "the answer")
        bodies = [r.json() for r in server.requests]
    assert not (tmp_path / "typed.txt").exists()
    results = [m["content"] for m in bodies[1]["messages"] if m["role"] == "tool"]
    assert results
    assert "declined" in results[-1]


async def test_two_answers_queued_to_the_dialog_before_it_closes_answer_once_and_the_app_lives_on(
    tmp_path: Path,
) -> None:
    with server_for("chat", _script()) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            dialog = await _approval_asked(app, pilot)
            await until(pilot, lambda: dialog.armed, "the dialog to arm")
            # `y` then Esc, both read before the dialog handled the first (a busy app): the app forwards
            # each to the dialog on top, so both wait in its queue.
            dialog.post_message(events.Key("y", "y"))
            dialog.post_message(events.Key("escape", None))
            await until(pilot, lambda: "first turn done" in screen_text(app), "the answer")
            assert app.screen is app.screen_stack[0]
            assert "no approval request" not in screen_text(app)
        bodies = [r.json() for r in server.requests]
    # The first answer counts: the command ran.
    assert (tmp_path / "typed.txt").exists()
    results = [m["content"] for m in bodies[1]["messages"] if m["role"] == "tool"]
    assert "exit_code" in results[-1]
