"""Each slash command does what `/help` says, through the session's operations and properties."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.tui_helpers import check_snapshot, running_app, screen_text, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.jobs_screen import JobsScreen
from vtcode.tui.screens import SessionPicker, TextScreen


async def _command(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


def _panel_text(app: VtcodeApp) -> str:
    screen = app.screen
    assert isinstance(screen, TextScreen), screen
    body = screen.body
    return body if isinstance(body, str) else body.plain


async def _ask(pilot: Pilot[Any], app: VtcodeApp, text: str, answer: str) -> None:
    await _command(pilot, text)
    await until(pilot, lambda: answer in screen_text(app), answer)


async def test_help_status_and_memory_show_their_views(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("# Rules\nUse tabs.\n")
    with server_for("chat", [Reply(text="hello there", input_tokens=1234)]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(80, 24)) as (app, pilot):
            await _ask(pilot, app, "hi", "hello there")
            await _command(pilot, "/help")
            assert "Alt+Enter" in _panel_text(app)
            assert "/jobs" in _panel_text(app)
            await check_snapshot(pilot, "help_80x24")
            await pilot.press("escape")
            await _command(pilot, "/status")
            status = _panel_text(app)
            for expected in ("provider       openai", "model          gpt-4.1", "tokens in      1,234"):
                assert expected in status
            assert "hard threshold 144,000" in status
            assert "soft threshold 129,600" in status
            # The thresholds are compared in the provider's tokens: the ratio they are planned with.
            assert "token ratio    1.00 provider tokens per estimated token" in status
            await pilot.press("escape")
            await _command(pilot, "/memory")
            assert "AGENTS.md" in _panel_text(app)
            await pilot.press("escape")
            assert not isinstance(app.screen, TextScreen)


async def test_compact_submits_compaction_and_shows_the_answer(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "/compact")
            # A new session's history fits in the verbatim tail: the runtime says there is nothing to do.
            await until(pilot, lambda: "nothing to compact" in screen_text(app), "the notice")


async def test_model_and_profile_apply_from_the_next_turn(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="one"), Reply(text="two")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _ask(pilot, app, "first", "one")
            await _command(pilot, "/model gpt-4o")
            await until(pilot, lambda: "model: gpt-4o" in screen_text(app), "the switch notice")
            assert "prompt cache starts over once" in screen_text(app)
            # compact_on_model_switch is on by default: a compaction was asked for (too short to need one).
            await until(pilot, lambda: "nothing to compact" in screen_text(app), "the compaction notice")
            await _command(pilot, "/profile minimal")
            await until(pilot, lambda: "prompt profile: minimal" in screen_text(app), "the profile notice")
            await _command(pilot, "/profile nonsense")
            await until(pilot, lambda: "unknown prompt profile" in screen_text(app), "the error")
            await _ask(pilot, app, "second", "two")
        bodies = [r.json() for r in server.requests]
    assert [b["model"] for b in bodies] == ["gpt-4.1", "gpt-4o"]
    systems = [b["messages"][0]["content"] for b in bodies]
    assert systems[0] != systems[1]


async def test_jobs_lists_shows_output_waits_and_kills(tmp_path: Path) -> None:
    start = json.dumps({"cmd": "echo started; sleep 60", "yield_time_ms": 300})
    script = [
        Reply(tool_calls=(ScriptToolCall("exec_command", start, id="c1"),)),
        Reply(text="left it running"),
    ]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _ask(pilot, app, "start a server", "left it running")
            session = app.session
            assert session is not None
            assert session.status().running_jobs == 1
            await _command(pilot, "/jobs")
            assert isinstance(app.screen, JobsScreen)
            jobs = app.screen
            assert [(j.command, j.running) for j in jobs.shown] == [("echo started; sleep 60", True)]
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "the output")
            assert "started" in _panel_text(app)
            await pilot.press("escape")
            await pilot.press("k")
            await until(pilot, lambda: not jobs.shown or not jobs.shown[0].running, "the kill")
            assert session.status().running_jobs == 0
            await pilot.press("escape")
            assert not isinstance(app.screen, JobsScreen)


async def test_new_resume_and_quit(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="remember me"), Reply(text="fresh start")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            first = app.session
            assert first is not None
            await _ask(pilot, app, "first session", "remember me")
            await _command(pilot, "/new")
            await until(pilot, lambda: app.session is not None and app.session is not first, "a new session")
            assert "remember me" not in screen_text(app)
            await _ask(pilot, app, "second session", "fresh start")
            await _command(pilot, "/resume")
            await until(pilot, lambda: isinstance(app.screen, SessionPicker), "the picker")
            picker = app.screen
            assert isinstance(picker, SessionPicker)
            assert [s.id for s in picker.sessions] == [first.id]
            await pilot.press("enter")
            await until(pilot, lambda: app.session is not None and app.session.id == first.id, "the resume")
            await until(pilot, lambda: "remember me" in screen_text(app), "the old conversation")
            assert "› first session" in screen_text(app)
            await _command(pilot, "/nonsense")
            await until(pilot, lambda: "unknown command /nonsense" in screen_text(app), "the error")
            await _command(pilot, "/quit")
            await until(pilot, lambda: not app.is_running, "the app to quit")


async def test_jobs_wait_reports_the_exit_and_steer_sends_steering(tmp_path: Path) -> None:
    start = json.dumps({"cmd": "sleep 1; echo finished", "yield_time_ms": 200})
    script = [
        Reply(tool_calls=(ScriptToolCall("exec_command", start, id="c1"),)),
        Reply(text="started it"),
        Reply(text="x" * 600, chunk_size=3, delay_between=0.03),
    ]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _ask(pilot, app, "start it", "started it")
            await _command(pilot, "/jobs")
            jobs = app.screen
            assert isinstance(jobs, JobsScreen)
            await pilot.press("w")
            note = jobs.query_one("#job-note")
            await until(pilot, lambda: "exit 0" in str(note.render()), "the wait")
            await pilot.press("escape")
            await _ask(pilot, app, "long one", "xxx")
            await _command(pilot, "/steer also this")
            session = app.session
            assert session is not None
            assert [(p.text, p.mode) for p in session.pending] == [("also this", "steer")]


async def test_the_transcript_keeps_up_while_a_dialog_is_open(tmp_path: Path) -> None:
    answer = "streamed while help was open " * 20
    with server_for("chat", [Reply(text=answer, chunk_size=5, delay_between=0.02)]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "go")
            await until(pilot, lambda: "streamed" in screen_text(app), "streaming")
            await _command(pilot, "/help")
            assert isinstance(app.screen, TextScreen)
            session = app.session
            assert session is not None
            await until(pilot, lambda: not session.running, "the end of the turn")
            await pilot.press("escape")
            assert screen_text(app).endswith(answer)
            assert "ready" in str(app.status_line.render())


async def test_pause_holds_the_agent_before_its_next_step_and_pause_again_goes_on(tmp_path: Path) -> None:
    looking = Reply(
        text="looking " * 30,
        chunk_size=4,
        delay_between=0.03,
        tool_calls=(ScriptToolCall("list_files", "{}", id="c1"),),
    )
    with server_for("chat", [looking, Reply(text="went on")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "search")
            await until(pilot, lambda: "looking" in screen_text(app), "streaming")
            await _command(pilot, "/pause")
            await until(pilot, lambda: "paused before the next step" in screen_text(app), "the pause")
            assert app.session is not None
            assert app.session.paused
            assert " paused " in str(app.status_line.render())
            await _command(pilot, "/pause")
            await until(pilot, lambda: "went on" in screen_text(app), "the rest of the turn")
            assert not app.session.paused
    assert len(server.requests) == 2
