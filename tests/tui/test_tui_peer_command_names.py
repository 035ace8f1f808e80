"""The command names people bring from Claude Code and Codex work in the TUI: `/init` asks the agent for
an `AGENTS.md`, `/clear` starts a new session, `/exit` leaves, `/commands` lists the custom commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.core.prompt_commands import INIT_PROMPT
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.screens import TextScreen


async def _command(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


async def test_init_sends_the_agents_md_prompt_and_help_lists_it(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="AGENTS.md written")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "/help")
            screen = app.screen
            assert isinstance(screen, TextScreen)
            assert "/init [FOCUS]" in str(screen.body)
            await pilot.press("escape")
            await _command(pilot, "/init")
            await until(pilot, lambda: "AGENTS.md written" in screen_text(app), "the answer")
            assert "unknown command" not in screen_text(app)
        sent = server.requests[0].json()["messages"][-1]["content"]
    assert sent == INIT_PROMPT


async def test_clear_starts_a_new_session_commands_lists_and_exit_leaves(tmp_path: Path) -> None:
    commands = tmp_path / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "fix-it.md").write_text("---\ndescription: fix the thing\n---\nFix it.\n")
    with server_for("chat", [Reply(text="remember me")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            first = app.session
            await _command(pilot, "hello")
            await until(pilot, lambda: "remember me" in screen_text(app), "the answer")
            await _command(pilot, "/clear")
            await until(pilot, lambda: app.session is not None and app.session is not first, "a new session")
            assert "remember me" not in screen_text(app)
            await _command(pilot, "/commands")
            screen = app.screen
            assert isinstance(screen, TextScreen)
            assert "/fix-it" in str(screen.body)
            await pilot.press("escape")
            await _command(pilot, "/exit")
            await until(pilot, lambda: not app.is_running, "the app to quit")
