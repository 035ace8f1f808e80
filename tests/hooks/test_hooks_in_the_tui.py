"""The TUI goes through the same hook dispatch: a PreToolUse deny holds, an untrusted workspace hook does
not run and the user sees why, and `/hooks` lists the hooks with their trust."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from tests.hooks.helpers import hooks_json, script, user_config
from tests.tui.tui_helpers import make_app, running_app_on, screen_text, tui_options, type_text, until
from vtcode.config.hook_sources import load_hooks
from vtcode.config.loader import load_settings
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.server import WireServer
from vtcode.testing.wire import server_for
from vtcode.tui.approval import ApprovalScreen
from vtcode.tui.hooks_trust import HookTrustScreen
from vtcode.tui.screens import TextScreen

GUARD = "cat > /dev/null\necho no >&2\nexit 2\n"


def _with_hooks(ws: Path, home: Path, server: WireServer) -> SessionOptions:
    """TUI options with the hooks the front end loads from the config files (as `vtcode` does)."""
    chosen = tui_options(ws, home, server)
    loaded = load_settings(workspace=ws, env={"HOME": str(home), "VTCODE_HOME": str(home / ".vtcode")})
    return dataclasses.replace(chosen, hooks=load_hooks(loaded, ws).hooks)


def _touch(name: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": f"touch {name}"}), id="c1"),))


async def test_a_pre_tool_use_deny_holds_in_the_tui(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    home = tmp_path / "home"
    guard = script(tmp_path / "guard.sh", GUARD)
    user_config(
        home, f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{guard}"\n'
    )
    with server_for("chat", [_touch("ran"), Reply(text="finished")]) as server:
        async with running_app_on(_with_hooks(ws, home, server), size=(100, 30)) as (app, pilot):
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: "finished" in screen_text(app), "the answer")
            assert "not run: no" in screen_text(app)
        bodies = [r.json() for r in server.requests]
    assert not (ws / "ran").exists()
    assert [m["content"] for m in bodies[-1]["messages"] if m["role"] == "tool"] == ["ERROR: not run: no"]


async def test_an_untrusted_workspace_hook_does_not_run_in_the_tui_and_hooks_shows_it(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    home = tmp_path / "home"
    script(ws / ".vtcode" / "hooks" / "guard.sh", GUARD)
    hooks_json(
        ws / ".vtcode" / "hooks.json",
        {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": ".vtcode/hooks/guard.sh"}]}]},
    )
    with server_for("chat", [_touch("ran"), Reply(text="finished")]) as server:
        app = make_app(_with_hooks(ws, home, server))
        async with app.run_test(size=(120, 30)) as pilot:
            # Asked first whether the workspace's hooks may run: "not now".
            await until(pilot, lambda: isinstance(app.screen, HookTrustScreen), "the hook trust dialog")
            await pilot.press("n")
            await until(pilot, lambda: app.session is not None, "the session")
            await until(pilot, lambda: "hook skipped: untrusted" in screen_text(app), "the untrusted notice")
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: "finished" in screen_text(app), "the answer")
            await type_text(pilot, "/hooks")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "the hooks view")
            screen = app.screen
            assert isinstance(screen, TextScreen)
            assert screen.title_text == "Hooks (/hooks)"
            assert "PreToolUse [Bash]: .vtcode/hooks/guard.sh" in str(screen.body)
            assert "NOT TRUSTED" in str(screen.body)
    assert (ws / "ran").exists()


async def test_a_notification_hook_hears_of_a_permission_prompt(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    home = tmp_path / "home"
    told = tmp_path / "told.json"
    notify = script(tmp_path / "notify.sh", f"cat > {told}.tmp && mv {told}.tmp {told}\n")
    user_config(
        home,
        '[[hooks.Notification]]\nmatcher = "permission_prompt"\n'
        f'[[hooks.Notification.hooks]]\ncommand = "{notify}"\n',
    )
    with server_for("chat", [_touch("ran"), Reply(text="finished")]) as server:
        chosen = dataclasses.replace(_with_hooks(ws, home, server), settings=_ask(server, ws, home).settings)
        async with running_app_on(chosen, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ApprovalScreen), "the approval dialog")
            await until(pilot, told.exists, "the notification hook")
            await until(
                pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "the dialog"
            )
            await pilot.press("y")
            await until(pilot, lambda: "finished" in screen_text(app), "the answer")
    payload = json.loads(told.read_text())
    assert payload["notification_type"] == "permission_prompt"
    assert "exec_command" in payload["message"]
    assert (ws / "ran").exists()


def _ask(server: WireServer, ws: Path, home: Path) -> SessionOptions:
    return tui_options(ws, home, server, approval="ask")


async def test_a_failing_hook_is_a_warning_on_screen_and_the_tool_runs(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    home = tmp_path / "home"
    broken = script(tmp_path / "broken.sh", "cat > /dev/null\necho 'jq: not found' >&2\nexit 1\n")
    user_config(
        home, f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{broken}"\n'
    )
    with server_for("chat", [_touch("ran"), Reply(text="finished")]) as server:
        async with running_app_on(_with_hooks(ws, home, server), size=(160, 40)) as (app, pilot):
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: "finished" in screen_text(app), "the answer")
            assert "failed, continuing without it: it exited with status 1: jq: not found" in screen_text(app)
    assert (ws / "ran").exists()
