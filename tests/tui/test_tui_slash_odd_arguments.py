"""Slash commands given what a person really types: prefixes, paths, repeats across turns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.screens import TextScreen


async def _command(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


async def test_resume_with_a_prefix_of_the_open_session_says_it_is_the_one_open(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="stored now")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            session = app.session
            assert session is not None
            await _command(pilot, "hello")
            await until(pilot, lambda: "stored now" in screen_text(app), "the answer")
            await _command(pilot, f"/resume {session.id[:8]}")
            answered = ("is the one open", "this session goes on")
            await until(pilot, lambda: any(a in screen_text(app) for a in answered), "the answer to /resume")
            assert f"session {session.id} is the one open" in screen_text(app)
            assert "another vtcode process" not in screen_text(app)
            assert app.session is session


async def test_a_message_that_starts_with_an_absolute_path_is_sent_to_the_model(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="looked at it")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "/etc/hosts has a bad line")
            answered = ("looked at it", "unknown command")
            await until(pilot, lambda: any(a in screen_text(app) for a in answered), "an answer")
            assert "unknown command" not in screen_text(app)
            assert "› /etc/hosts has a bad line" in screen_text(app)
    assert server.requests[0].json()["messages"][-1]["content"] == "/etc/hosts has a bad line"


async def test_new_during_a_later_turn_warns_again_though_an_earlier_warning_went_unconfirmed(
    tmp_path: Path,
) -> None:
    # Turns long enough (seconds) that the commands typed key by key land while they run, also on a
    # loaded machine.
    first = Reply(text="first " * 600, chunk_size=6, delay_between=0.02)
    second = Reply(text="second " * 3000, chunk_size=7, delay_between=0.02)
    warning = "a turn is running: /new again interrupts it"
    with server_for("chat", [first, second]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            session = app.session
            assert session is not None
            await _command(pilot, "one")
            await until(pilot, lambda: "first" in screen_text(app), "the first turn streaming")
            await _command(pilot, "/new")
            await until(pilot, lambda: warning in screen_text(app), "the warning")
            await until(pilot, lambda: not session.running, "the end of the first turn")
            await _command(pilot, "two")
            await until(pilot, lambda: "second" in screen_text(app), "the second turn streaming")
            await _command(pilot, "/new")
            await until(
                pilot,
                lambda: screen_text(app).count(warning) == 2 or app.session is not session,
                "the second /new to warn or act",
            )
            assert app.session is session
            assert session.running


async def test_model_with_words_after_the_name_is_refused_and_the_model_stays(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="still the same model")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "/model gpt-4.1-mini please")
            answered = ("a model name has no spaces", "from the next turn on")
            await until(pilot, lambda: any(a in screen_text(app) for a in answered), "the answer to /model")
            assert "✗ a model name has no spaces: 'gpt-4.1-mini please'" in screen_text(app)
            assert " gpt-4.1 · " in str(app.status_line.render())
            await _command(pilot, "go on")
            await until(pilot, lambda: "still the same model" in screen_text(app), "the answer")
    assert server.requests[0].json()["model"] == "gpt-4.1"


async def test_resume_during_a_turn_warns_first_and_again_opens_the_other_session(tmp_path: Path) -> None:
    slow = Reply(text="busy " * 3000, chunk_size=5, delay_between=0.02)
    with server_for("chat", [Reply(text="the first one"), slow]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            first = app.session
            assert first is not None
            await _command(pilot, "one")
            await until(pilot, lambda: "the first one" in screen_text(app), "the first answer")
            await _command(pilot, "/new")
            await until(pilot, lambda: app.session not in (None, first), "a new session")
            second = app.session
            assert second is not None
            await _command(pilot, "two")
            await until(pilot, lambda: "busy" in screen_text(app), "the second turn streaming")
            await _command(pilot, f"/resume {first.id}")
            warning = f"a turn is running: /resume again interrupts it and opens session {first.id}"
            await until(
                pilot,
                lambda: warning in screen_text(app) or app.session is not second,
                "/resume to warn or act",
            )
            assert app.session is second
            assert second.running
            await _command(pilot, f"/resume {first.id}")
            await until(pilot, lambda: app.session is not None and app.session.id == first.id, "the resume")


async def test_a_model_switch_during_a_turn_says_it_applies_from_the_next_turn(tmp_path: Path) -> None:
    slow = Reply(text="busy " * 1000, chunk_size=5, delay_between=0.02)
    with server_for("chat", [slow, Reply(text="on the new model")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "one")
            await until(pilot, lambda: "busy" in screen_text(app), "the turn streaming")
            await _command(pilot, "/model gpt-4.1-mini")
            await until(pilot, lambda: "takes effect when this turn ends" in screen_text(app), "the notice")
            await until(pilot, lambda: "model: gpt-4.1-mini from" in screen_text(app), "the switch")
            assert "model: gpt-4.1-mini from the next turn on" in screen_text(app)
            await _command(pilot, "two")
            await until(pilot, lambda: "on the new model" in screen_text(app), "the answer")
    assert [r.json()["model"] for r in server.requests] == ["gpt-4.1", "gpt-4.1-mini"]


def _panel_text(app: VtcodeApp) -> str:
    screen = app.screen
    assert isinstance(screen, TextScreen), screen
    body = screen.body
    return body if isinstance(body, str) else body.plain


async def test_a_space_after_the_slash_still_names_the_command(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "/ help")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "the help view")
            assert "Alt+Enter" in _panel_text(app)
            await pilot.press("escape")
            assert "unknown command" not in screen_text(app)
            await _command(pilot, "/")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "the help view for a lone /")
            assert "Alt+Enter" in _panel_text(app)
