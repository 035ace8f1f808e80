"""`!cmd` typed in the TUI runs in the user's shell: its command card shows the output, no model request."""

from __future__ import annotations

from pathlib import Path

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.commands import help_text
from vtcode.tui.transcript import CommandCard


async def test_typing_a_shell_command_shows_its_card_and_asks_the_model_nothing(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="unused")]) as server:
        # `ask` would put an agent's command to the user: the user's own command is not asked about.
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            await type_text(pilot, "!echo hello")
            await pilot.press("enter")
            await until(pilot, lambda: bool(app.transcript.query(CommandCard)), "the command card")
            card = app.transcript.query_one(CommandCard)
            await until(pilot, lambda: card.item.status == "completed" and not app.view.busy, "the end")
            assert card.item.command == "echo hello"
            assert card.item.aggregated_output.strip() == "hello"
            assert "hello" in screen_text(app).split("echo hello")[-1]
            assert server.requests == []


def test_help_lists_shell_commands() -> None:
    assert "!cmd" in help_text()
