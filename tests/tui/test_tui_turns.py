"""The TUI over a real session and a loopback model: turns, queued and steering input, interrupts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.content import Content
from textual.style import Style

from tests.tui.tui_helpers import (
    check_snapshot,
    make_app,
    running_app,
    screen_text,
    tui_options,
    type_text,
    until,
)
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.transcript import AnswerEntry, CommandCard, FileChangeCard, UserEntry


def _exec(cmd: str, call_id: str) -> ScriptToolCall:
    return ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id=call_id)


async def test_a_turn_with_a_command_renders_the_card_and_the_streamed_answer(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("remember\n")
    script = [
        Reply(
            reasoning="The user wants the command run.",
            tool_calls=(
                _exec("echo hello from the card", "c1"),
                ScriptToolCall("read_file", json.dumps({"path": "notes.txt"}), id="c2"),
            ),
        ),
        Reply(text="All **done**.\n\n- the command printed its line\n- `notes.txt` was read"),
    ]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(80, 24)) as (app, pilot):
            await type_text(pilot, "run it")
            await pilot.press("enter")
            await until(pilot, lambda: "was read" in screen_text(app), "the answer")
            card = app.transcript.query_one(CommandCard)
            await until(pilot, lambda: card.item.exit_code == 0, "the exit status")
            assert "hello from the card" in card.item.aggregated_output
            users = [str(u.render()) for u in app.transcript.query(UserEntry)]
            assert users == ["› run it"]
            answer = app.transcript.query_one(AnswerEntry)
            assert answer.received.startswith("All **done**.")
            assert app.composer.text == ""
            assert "• read_file notes.txt" in screen_text(app)
            assert "(thinking) The user wants the command run." in screen_text(app)
            await until(pilot, lambda: not app.view.busy, "the end of the turn")
            await check_snapshot(pilot, "main_screen_after_a_turn_80x24")


async def test_resizing_to_80x24_and_200x60_during_a_turn_breaks_nothing(tmp_path: Path) -> None:
    slow = Reply(text="a long streamed answer " * 40, chunk_size=5, delay_between=0.02)
    script = [Reply(tool_calls=(_exec("seq 1 200", "c1"),)), slow]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(120, 40)) as (app, pilot):
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: "a long streamed" in screen_text(app), "streaming")
            await pilot.resize_terminal(80, 24)
            await pilot.pause(0.1)
            assert app.size == (80, 24)
            await pilot.resize_terminal(200, 60)
            await pilot.pause(0.1)
            assert app.size == (200, 60)
            await pilot.resize_terminal(80, 24)
            session = app.session
            assert session is not None
            await until(pilot, lambda: not session.running, "the end of the turn")
            answer = app.transcript.query_one(AnswerEntry)
            assert answer.received == "a long streamed answer " * 40
            # The composer and status line are still on screen at the small size.
            assert app.composer.region.bottom <= 23
            assert app.composer.region.height >= 3


async def test_no_color_turns_the_screen_monochrome(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    with server_for("chat", []) as server:
        async with running_app(tmp_path, tmp_path, server, size=(80, 24)) as (app, _pilot):
            assert app.no_color


async def test_a_first_prompt_from_the_command_line_is_sent_at_once(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="answered the first prompt")]) as server:
        app = make_app(tui_options(tmp_path, tmp_path, server), prompt="fix the tests")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "answered the first prompt" in screen_text(app), "the answer")
            assert "› fix the tests" in screen_text(app)


async def test_a_long_command_line_is_cut_and_its_exit_status_stays_on_screen(tmp_path: Path) -> None:
    long_command = "echo " + "word " * 60
    with server_for("chat", [Reply(tool_calls=(_exec(long_command, "c1"),)), Reply(text="ok")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(80, 24)) as (app, pilot):
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: "ok" in screen_text(app) and not app.view.busy, "the answer")
            card = app.transcript.query_one(CommandCard)
            assert card.size.height == 3
            rows = str(card.render()).split("\n")
            assert rows[0].endswith("…")
            assert rows[-1] == "  exit 0"
            assert all(len(row) < 80 for row in rows)


async def test_an_edit_is_shown_as_a_coloured_diff(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    patch = (
        "*** Begin Patch\n*** Update File: calc.py\n@@\n-    return a - b\n+    return a + b\n*** End Patch"
    )
    script = [
        Reply(tool_calls=(ScriptToolCall("apply_patch", json.dumps({"patch": patch}), id="c1"),)),
        Reply(text="Fixed."),
    ]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(80, 24)) as (app, pilot):
            await type_text(pilot, "fix it")
            await pilot.press("enter")
            await until(pilot, lambda: "Fixed." in screen_text(app), "the answer")
            shown = screen_text(app)
            assert "~ calc.py" in shown
            assert "-    return a - b" in shown
            assert "+    return a + b" in shown
            rendered = app.transcript.query_one(FileChangeCard).render()
            assert isinstance(rendered, Content)
            styles = {rendered.plain[s.start : s.end]: s.style for s in rendered.spans}
            # Added lines and removed lines in two different colours (ANSI green and red here).
            added, removed = styles["+    return a + b"], styles["-    return a - b"]
            assert added != removed
            assert isinstance(added, Style)
            assert isinstance(removed, Style)
            assert added.foreground is not None
            assert removed.foreground is not None
            assert (added.foreground.ansi, removed.foreground.ansi) == (2, 1)
