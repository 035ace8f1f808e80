"""The TUI over a real session and a loopback model: turns, queued and steering input, interrupts."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tui.tui_helpers import make_app, screen_text, tui_options, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.transcript import AnswerEntry, CommandCard, UserEntry


def _exec(cmd: str, call_id: str) -> ScriptToolCall:
    return ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id=call_id)


async def test_a_turn_with_a_command_renders_the_card_and_the_streamed_answer(tmp_path: Path) -> None:
    script = [Reply(tool_calls=(_exec("echo hello from the card", "c1"),)), Reply(text="All **done**.")]
    with server_for("chat", script) as server:
        app = make_app(tui_options(tmp_path, tmp_path, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.session is not None, "the session")
            await type_text(pilot, "run it")
            await pilot.press("enter")
            await until(pilot, lambda: "All **done**." in screen_text(app), "the answer")
            card = app.transcript.query_one(CommandCard)
            await until(pilot, lambda: card.item.exit_code == 0, "the exit status")
            assert "hello from the card" in card.item.aggregated_output
            users = [str(u.render()) for u in app.transcript.query(UserEntry)]
            assert users == ["› run it"]
            answer = app.transcript.query_one(AnswerEntry)
            assert answer.received == "All **done**."
            assert app.composer.text == ""
