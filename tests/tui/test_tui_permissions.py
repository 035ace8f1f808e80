"""`/permissions` and `/status`: approval and sandbox modes, session grants listed and revoked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from tests.tui.tui_helpers import make_app, running_app, screen_text, tui_options, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.approval import ApprovalScreen
from vtcode.tui.permissions_screen import PermissionsScreen
from vtcode.tui.screens import TextScreen


def _exec(cmd: str, call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id=call_id),))


async def _command(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


def _screen_words(app: VtcodeApp) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query(Static))


async def test_permissions_lists_a_grant_and_revoking_it_makes_the_next_call_ask_again(
    tmp_path: Path,
) -> None:
    script = [
        _exec("touch one.txt", "c1"),
        Reply(text="one made"),
        _exec("touch two.txt", "c2"),
        Reply(text="two refused"),
    ]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            await _command(pilot, "first")
            await until(
                pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "the dialog"
            )
            await pilot.press("ctrl+a")
            await until(pilot, lambda: "one made" in screen_text(app), "the first answer")
            assert "1 granted" in str(app.status_line.render())
            await _command(pilot, "/status")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "/status")
            status = _screen_words(app)
            assert "approval mode  ask" in status
            assert "sandbox        workspace-write" in status
            assert "commands starting with `touch`" in status
            await pilot.press("escape")
            await _command(pilot, "/permissions")
            await until(pilot, lambda: isinstance(app.screen, PermissionsScreen), "/permissions")
            listed = app.screen
            assert isinstance(listed, PermissionsScreen)
            assert [g.describe() for g in listed.shown] == ["commands starting with `touch`"]
            await pilot.press("d")
            await until(pilot, lambda: not listed.shown, "the grant to go")
            await pilot.press("escape")
            session = app.session
            assert session is not None
            assert not session.grants
            await _command(pilot, "second")
            await until(
                pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "a new question"
            )
            await pilot.press("escape")
            await until(pilot, lambda: "two refused" in screen_text(app), "the second answer")
            assert "no longer allowed for this session" in screen_text(app)
    assert (tmp_path / "one.txt").exists()
    assert not (tmp_path / "two.txt").exists()


async def test_the_status_line_shows_the_approval_and_sandbox_modes(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        app = make_app(tui_options(tmp_path, tmp_path, server, approval="auto-edit"))
        async with app.run_test(size=(120, 30)) as pilot:
            await until(pilot, lambda: "ready" in str(app.status_line.render()), "the status line")
            line = str(app.status_line.render())
            assert "auto-edit" in line
            assert "sandboxed" in line
