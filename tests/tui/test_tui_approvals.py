"""The approval modal: allow once, allow for the session, deny with a reason; and the setup screen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.tui_helpers import check_snapshot, make_app, running_app, screen_text, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.approval import ApprovalScreen
from vtcode.tui.screens import SetupScreen


def _exec(cmd: str, call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id=call_id),))


async def _armed(pilot: Pilot[Any], app: VtcodeApp) -> None:
    await until(pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "the dialog")


def _tool_results(body: dict[str, object]) -> list[str]:
    messages = body["messages"]
    assert isinstance(messages, list)
    return [m["content"] for m in messages if m["role"] == "tool"]


async def test_the_approval_modal_allows_once_then_denies_with_a_reason(tmp_path: Path) -> None:
    script = [_exec("echo one > one.txt", "c1"), _exec("echo two > two.txt", "c2"), Reply(text="finished")]
    with server_for("chat", script) as server:
        # A still clock: the spinner's frame and elapsed time are the same in every run.
        async with running_app(
            tmp_path, tmp_path, server, approval="ask", size=(80, 24), clock=lambda: 0.0
        ) as (app, pilot):
            await type_text(pilot, "make files")
            await pilot.press("enter")
            await _armed(pilot, app)
            await check_snapshot(pilot, "approval_modal_80x24")
            await pilot.press("y")
            await until(
                pilot,
                lambda: isinstance(app.screen, ApprovalScreen) and "two" in app.screen.request.display,
                "the second approval",
            )
            await _armed(pilot, app)
            await pilot.press("n")
            await type_text(pilot, "not that one")
            await pilot.press("enter")
            await until(pilot, lambda: "finished" in screen_text(app), "the answer")
            assert "not run: not approved" in screen_text(app)
        bodies = [r.json() for r in server.requests]
    assert (tmp_path / "one.txt").read_text() == "one\n"
    assert not (tmp_path / "two.txt").exists()
    assert "not that one" in _tool_results(bodies[2])[-1]


async def test_allow_for_the_session_does_not_ask_again_for_the_same_command_prefix(tmp_path: Path) -> None:
    script = [_exec("touch a.txt", "c1"), _exec("touch b.txt", "c2"), Reply(text="both done")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            await type_text(pilot, "make two files")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ApprovalScreen), "the approval")
            await _armed(pilot, app)
            await pilot.press("ctrl+a")
            await until(pilot, lambda: "both done" in screen_text(app), "the answer")
    assert (tmp_path / "a.txt").exists()
    assert (tmp_path / "b.txt").exists()


async def test_escape_in_the_modal_denies_and_an_interrupt_closes_it(tmp_path: Path) -> None:
    script = [_exec("echo a > a.txt", "c1"), _exec("echo b > b.txt", "c2")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            await type_text(pilot, "files")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ApprovalScreen), "the first approval")
            await pilot.press("escape")
            await until(
                pilot,
                lambda: isinstance(app.screen, ApprovalScreen) and "b.txt" in app.screen.request.display,
                "the second approval",
            )
            assert app.session is not None
            await app.action_interrupt()
            await until(pilot, lambda: not isinstance(app.screen, ApprovalScreen), "the modal to close")
            await until(pilot, lambda: "interrupted" in screen_text(app), "the interrupt")
    assert not (tmp_path / "a.txt").exists()
    assert not (tmp_path / "b.txt").exists()


async def test_without_a_provider_the_tui_opens_on_a_setup_screen(tmp_path: Path) -> None:
    from tests.runtime.session_helpers import options
    from vtcode.config.schema import Settings
    from vtcode.runtime.wiring import SessionOptions

    with server_for("chat", []) as server:
        base = options(tmp_path, tmp_path, server)
    no_provider = SessionOptions(
        workspace=tmp_path, settings=Settings(), home=base.home, env={"HOME": str(tmp_path)}, headless=False
    )
    app = make_app(no_provider)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")
        await check_snapshot(pilot, "setup_screen_80x24")
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app to quit")


async def test_keys_typed_as_the_dialog_opens_allow_nothing(tmp_path: Path) -> None:
    script = [_exec("touch typed.txt", "c1"), Reply(text="denied then")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ApprovalScreen), "the approval")
            screen = app.screen
            assert isinstance(screen, ApprovalScreen)
            assert not screen.armed
            await pilot.press("y", "a")
            assert app.screen is screen
            await pilot.press("escape")
            await until(pilot, lambda: "denied then" in screen_text(app), "the answer")
    assert not (tmp_path / "typed.txt").exists()
