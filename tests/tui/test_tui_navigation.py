"""Moving around without losing anything: scrolling back, a mistyped /resume, switching models."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


async def _command(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


async def test_page_and_home_keys_scroll_the_transcript_not_the_composer(tmp_path: Path) -> None:
    long_answer = "\n\n".join(f"paragraph {n}" for n in range(120)) + "\n\nthe end"
    with server_for("chat", [Reply(text=long_answer)]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(80, 24)) as (app, pilot):
            await _command(pilot, "tell me a lot")
            await until(pilot, lambda: "the end" in screen_text(app), "the answer")
            transcript = app.transcript
            await until(pilot, lambda: transcript.max_scroll_y > 50, "a long transcript")
            await until(pilot, lambda: transcript.scroll_y == transcript.max_scroll_y, "the bottom")
            bottom = transcript.scroll_y
            await type_text(pilot, "draft")
            await pilot.press("pageup")
            await pilot.pause()
            assert transcript.scroll_y < bottom
            assert app.composer.text == "draft"
            await pilot.press("pagedown")
            await pilot.pause()
            assert transcript.scroll_y == bottom
            # With text in the composer, Home edits its line; empty, it goes to the top.
            await pilot.press("home")
            assert app.composer.cursor_location == (0, 0)
            assert transcript.scroll_y == bottom
            app.composer.clear()
            await pilot.press("home")
            await pilot.pause()
            assert transcript.scroll_y == 0
            await pilot.press("end")
            await pilot.pause()
            assert transcript.scroll_y == transcript.max_scroll_y


async def test_resume_with_a_mistyped_id_keeps_the_running_session(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="remember me"), Reply(text="still here")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            session = app.session
            await _command(pilot, "first")
            await until(pilot, lambda: "remember me" in screen_text(app), "the answer")
            await _command(pilot, "/resume 0000-no-such-session")
            await until(pilot, lambda: "this session goes on" in screen_text(app), "the error")
            assert app.screen is app.screen_stack[0]
            assert app.session is session
            assert "remember me" in screen_text(app)
            # `q` and Esc are ordinary keys again, not "quit".
            await pilot.press("escape")
            await _command(pilot, "q")
            await until(pilot, lambda: "still here" in screen_text(app), "the next answer")
            assert app.is_running


async def test_model_switch_recomputes_the_compaction_thresholds(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        async with running_app(tmp_path, tmp_path, server, model="gpt-4.1", size=(120, 30)) as (app, pilot):
            session = app.session
            assert session is not None
            before = session.status().thresholds
            await _command(pilot, "/model gpt-4o")
            await until(pilot, lambda: session.model == "gpt-4o", "the switch")
            status = session.status()
            assert status.context_window == 128_000
            assert status.thresholds.hard is not None
            assert before.hard is not None
            assert status.thresholds.hard < status.context_window < before.hard
            assert f"/{status.thresholds.hard / 1000:.1f}k" in str(app.status_line.render())
