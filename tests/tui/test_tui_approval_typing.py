"""Typing never answers an approval: what is typed stays the user's message, grants need Ctrl+A."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.tui_helpers import running_app, screen_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.approval import ApprovalScreen

# A sentence with every answering key in it (`y`, `a`, `n`), ending with Enter.
SENTENCE = "now please look at yes and no then run the unit tests, any day"


def _exec(cmd: str, call_id: str, *, delay: float = 0.0) -> Reply:
    return Reply(
        tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id=call_id),), delay_before=delay
    )


async def _type_slowly(pilot: Pilot[Any], text: str, pause: float = 0.03) -> None:
    """Type as a person does: a key every few hundredths of a second."""
    for character in text:
        await pilot.press(character if character != " " else "space")
        await pilot.pause(pause)


def _asking(app: VtcodeApp) -> ApprovalScreen | None:
    screen = app.screen
    return screen if isinstance(screen, ApprovalScreen) else None


def _user_texts(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


@pytest.mark.parametrize("opens_after", [0.1, 0.5, 1.0])
async def test_a_sentence_typed_while_the_dialog_opens_answers_nothing_and_is_sent_as_typed(
    tmp_path: Path, opens_after: float
) -> None:
    script = [
        _exec("touch typed.txt", "c1", delay=opens_after),
        Reply(text="first turn done"),
        Reply(text="second turn done"),
    ]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            await pilot.press("g", "o", "enter")
            await _type_slowly(pilot, SENTENCE)
            await pilot.press("enter")
            await until(pilot, lambda: (s := _asking(app)) is not None and s.armed, "the dialog")
            session = app.session
            assert session is not None
            # Nothing typed answered the dialog: it still asks, nothing ran, nothing was granted.
            assert not session.grants
            assert not (tmp_path / "typed.txt").exists()
            assert app.composer.text == ""
            assert [p.text for p in session.pending] == [SENTENCE]
            await pilot.press("escape")
            await until(pilot, lambda: "second turn done" in screen_text(app), "both turns")
        bodies = [r.json() for r in server.requests]
    assert not (tmp_path / "typed.txt").exists()
    assert _user_texts(bodies[2])[-1] == SENTENCE


async def test_keys_typed_after_the_dialog_shows_go_to_the_composer_and_only_ctrl_a_grants(
    tmp_path: Path,
) -> None:
    script = [
        _exec("touch one.txt", "c1"),
        _exec("touch two.txt", "c2"),
        Reply(text="both made"),
    ]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            await pilot.press("g", "o", "enter")
            await until(pilot, lambda: _asking(app) is not None, "the dialog")
            dialog = _asking(app)
            assert dialog is not None
            for key in ("y", "a", "space", "n", "o", "backspace", "o"):
                await pilot.press(key)
            assert app.screen is dialog
            assert app.composer.text == "ya no"
            await until(pilot, lambda: dialog.armed, "the dialog to arm")
            await pilot.press("a")
            assert app.screen is dialog
            session = app.session
            assert session is not None
            assert not session.grants
            await pilot.press("ctrl+a")
            await until(pilot, lambda: "both made" in screen_text(app), "the answer")
            assert [g.describe() for g in session.grants] == ["commands starting with `touch`"]
            assert "allowed for the rest of this session" in screen_text(app)
    assert (tmp_path / "one.txt").exists()
    assert (tmp_path / "two.txt").exists()
