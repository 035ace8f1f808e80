"""A small terminal (40x10), or a long question: what needs an answer still shows how to answer it."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Static

from tests.tui.tui_helpers import make_app, running_app, screen_text, tui_options, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.approval import ApprovalScreen
from vtcode.tui.mcp_trust import McpTrustScreen


async def test_the_approval_keys_stay_on_screen_in_a_40x10_terminal(tmp_path: Path) -> None:
    # A compound command in auto-edit mode: the dialog's reason runs to several lines at this width.
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "rm -rf build && echo gone"}), id="c1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="ran it")]) as server:
        async with running_app(tmp_path, tmp_path, server, approval="auto-edit", size=(40, 10)) as (
            app,
            pilot,
        ):
            await type_text(pilot, "clean")
            await pilot.press("enter")
            await until(
                pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "the dialog"
            )
            await pilot.pause(0.2)
            keys = app.screen.query_one("#approval-keys", Static)
            dialog = app.screen.query_one("#approval")
            assert "[y] allow once" in str(keys.render())
            assert app.screen.region.contains_region(keys.region), (keys.region, app.screen.region)
            assert dialog.content_region.contains_region(keys.region), (keys.region, dialog.content_region)
            # The question does not fit: the arrow and page keys read the rest of it, answering nothing.
            assert dialog.max_scroll_y > 0
            await pilot.press("pagedown")
            await until(pilot, lambda: dialog.scroll_y > 0, "the question to scroll")
            paged = dialog.scroll_y
            await pilot.press("up")
            await until(pilot, lambda: dialog.scroll_y == paged - 1, "a line back")
            assert isinstance(app.screen, ApprovalScreen)
            await pilot.press("y")
            await until(pilot, lambda: "ran it" in screen_text(app), "the answer")


async def test_the_deny_reason_field_shows_in_a_40x10_terminal(tmp_path: Path) -> None:
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "rm -rf build && echo gone"}), id="c1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="did not run it")]) as server:
        async with running_app(tmp_path, tmp_path, server, approval="auto-edit", size=(40, 10)) as (
            app,
            pilot,
        ):
            await type_text(pilot, "clean")
            await pilot.press("enter")
            await until(
                pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "the dialog"
            )
            await pilot.press("n")
            await until(pilot, lambda: bool(app.screen.query("#deny-reason")), "the reason field")
            await pilot.pause(0.2)
            field = app.screen.query_one("#deny-reason")
            dialog = app.screen.query_one("#approval")
            keys = app.screen.query_one("#approval-keys", Static)
            assert dialog.content_region.contains_region(field.region), (field.region, dialog.content_region)
            assert not keys.display or not keys.region.overlaps(field.region), (keys.region, field.region)
            await type_text(pilot, "keep build")
            await pilot.press("enter")
            await until(pilot, lambda: "did not run it" in screen_text(app), "the answer")
    assert "keep build" in server.requests[1].json()["messages"][-1]["content"]


async def test_a_project_with_many_mcp_servers_shows_the_trust_keys_and_scrolls_the_list(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    servers = {f"server{n:02}": {"command": "never-started", "args": [str(n)]} for n in range(40)}
    (ws / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    with server_for("chat", []) as server:
        app = make_app(tui_options(ws, tmp_path, server))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, McpTrustScreen), "the trust dialog")
            screen = app.screen
            await pilot.pause(0.2)
            keys = screen.query_one("#approval-keys", Static)
            dialog = screen.query_one("#approval")
            assert "[n] / [Esc] do not start them" in str(keys.render())
            assert dialog.content_region.contains_region(keys.region), (keys.region, dialog.content_region)
            assert dialog.max_scroll_y > 0
            await pilot.press("pagedown")
            await until(pilot, lambda: dialog.scroll_y > 0, "the list to scroll")
            await pilot.press("n")
            await until(pilot, lambda: app.session is not None, "the session, without the servers")
