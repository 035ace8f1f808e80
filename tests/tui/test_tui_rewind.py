"""`/rewind` in the TUI: Esc Esc on an empty composer lists the turns, a scope is chosen, a preview
confirmed; `/redo` puts the files back; a conversation rewind opens the fork with the prompt in the
composer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.rewind_screens import ConfirmScreen
from vtcode.tui.screens import ChoiceScreen

PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"


async def _send(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


async def _edit_turn(pilot: Pilot[Any], app: VtcodeApp) -> None:
    await _send(pilot, "edit a")
    await until(pilot, lambda: "patched it" in screen_text(app), "the turn")
    await until(pilot, lambda: app.session is not None and not app.session.running, "the turn's end")


def _script() -> list[Reply]:
    call = ScriptToolCall("apply_patch", json.dumps({"patch": PATCH}), id="p1")
    return [Reply(tool_calls=(call,)), Reply(text="patched it"), Reply(text="on the branch")]


async def test_escape_twice_rewinds_the_code_after_a_preview_and_redo_puts_it_back(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("x = 1\n")
    with server_for("chat", _script()) as server:
        async with running_app(ws, tmp_path, server, size=(110, 30)) as (app, pilot):
            await _edit_turn(pilot, app)
            assert (ws / "a.py").read_text() == "x = 2\n"
            await pilot.press("escape", "escape")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the turn picker")
            picker = app.screen
            assert isinstance(picker, ChoiceScreen)
            assert picker.choices == [("1", "turn   1  edit a  (1 file(s))")]
            await pilot.press("enter")
            await until(
                pilot, lambda: isinstance(app.screen, ChoiceScreen) and app.screen is not picker, "scopes"
            )
            await pilot.press("down", "down", "enter")  # code only
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the preview")
            preview = app.screen
            assert isinstance(preview, ConfirmScreen)
            assert preview.body == "1 to modify, 0 to create, 0 to delete\n  modify a.py"
            assert (ws / "a.py").read_text() == "x = 2\n", "a preview changes nothing"
            await pilot.press("enter")
            await until(pilot, lambda: (ws / "a.py").read_text() == "x = 1\n", "the restore")
            await until(
                pilot, lambda: "rewound to before turn 1; restored 1 file(s)" in screen_text(app), "the note"
            )
            await _send(pilot, "/redo")
            await until(pilot, lambda: (ws / "a.py").read_text() == "x = 2\n", "the redo")


async def test_a_conversation_rewind_opens_the_branch_with_the_prompt_in_the_composer(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("x = 1\n")
    with server_for("chat", _script()) as server:
        async with running_app(ws, tmp_path, server, size=(110, 30)) as (app, pilot):
            await _edit_turn(pilot, app)
            first = app.session
            assert first is not None
            await _send(pilot, "/rewind 1 conversation yes")
            await until(pilot, lambda: app.session is not None and app.session is not first, "the branch")
            assert app.composer.text == "edit a"
            assert (ws / "a.py").read_text() == "x = 2\n", "conversation only: the files stay"
            await pilot.press("enter")
            await until(pilot, lambda: "on the branch" in screen_text(app), "a turn on the branch")
            sent = json.loads(server.requests[-1].body)["messages"]
            assert [m["content"] for m in sent if m["role"] == "user"][-1] == "edit a"
            assert not any(m["role"] == "tool" for m in sent), "the branch starts before the edit"


async def test_redo_on_the_branch_a_rewind_of_code_and_conversation_opened(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("x = 1\n")
    with server_for("chat", _script()) as server:
        async with running_app(ws, tmp_path, server, size=(110, 30)) as (app, pilot):
            await _edit_turn(pilot, app)
            first = app.session
            await _send(pilot, "/rewind 1 both yes")
            await until(pilot, lambda: app.session is not None and app.session is not first, "the branch")
            assert (ws / "a.py").read_text() == "x = 1\n"
            said = "rewound to before turn 1; restored 1 file(s); the conversation continues in session"
            await until(pilot, lambda: said in screen_text(app), "what the rewind did, shown on the branch")
            app.composer.load_text("")
            await _send(pilot, "/redo")
            await until(pilot, lambda: (ws / "a.py").read_text() == "x = 2\n", "the redo on the branch")
            await until(pilot, lambda: "redone; restored 1 file(s)" in screen_text(app), "the redo's notice")
            await pilot.pause(0.3)
            assert screen_text(app).count("redone; restored 1 file(s)") == 1, "said once"


def _damage_manifest(home: Path) -> None:
    (manifest,) = list(home.rglob("checkpoints/*/manifest.jsonl"))
    manifest.write_bytes(b'{"broken": \n' + manifest.read_bytes())


async def test_a_damaged_checkpoint_manifest_is_an_error_line_not_a_crash(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("x = 1\n")
    with server_for("chat", _script()) as server:
        async with running_app(ws, tmp_path, server, size=(110, 30)) as (app, pilot):
            await _edit_turn(pilot, app)
            _damage_manifest(tmp_path)
            await pilot.press("escape", "escape")
            await until(pilot, lambda: "manifest.jsonl:1" in screen_text(app), "the error line")
            assert app.is_running
            await _send(pilot, "/rewind 1 code")
            await until(pilot, lambda: screen_text(app).count("manifest.jsonl:1") == 2, "the second error")
            assert (ws / "a.py").read_text() == "x = 2\n"
