"""The composer while the agent works: queue, steer, interrupt, pending input, history, paste, @paths."""

from __future__ import annotations

import json
from pathlib import Path

from textual import events
from textual.widget import Widget

from tests.tui.tui_helpers import make_app, running_app, screen_text, tui_options, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.pending import PendingList
from vtcode.tui.transcript import NoticeEntry, UserEntry


def _user_texts(body: dict[str, object]) -> list[str]:
    messages = body["messages"]
    assert isinstance(messages, list)
    return [m["content"] for m in messages if m["role"] == "user"]


def _users(app: VtcodeApp) -> list[str]:
    return [str(u.render()) for u in app.transcript.query(UserEntry)]


def _focused(app: VtcodeApp) -> Widget | None:
    return app.focused


def _slow(text: str = "streaming slowly " * 30) -> Reply:
    return Reply(text=text, chunk_size=3, delay_between=0.03)


async def test_input_typed_during_a_turn_is_queued_listed_and_delivered_after_it(tmp_path: Path) -> None:
    with server_for("chat", [_slow(), Reply(text="second answer")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "first")
            await pilot.press("enter")
            await until(pilot, lambda: "streaming" in screen_text(app), "the first answer to stream")
            await type_text(pilot, "then this")
            await pilot.press("enter")
            pending = app.query_one(PendingList)
            assert [(p.text, p.mode) for p in pending.items] == [("then this", "queue")]
            assert pending.display
            # Not shown as sent before the session delivers it.
            assert _users(app) == ["› first"]
            await until(pilot, lambda: "second answer" in screen_text(app), "the second answer")
            assert _users(app) == ["› first", "› then this"]
            assert not pending.display
        bodies = [r.json() for r in server.requests]
    assert [_user_texts(b)[-1] for b in bodies] == ["first", "then this"]


_UNTIL_RELEASED = "until [ -e release ]; do sleep 0.05; done; echo released"


async def test_steering_is_delivered_at_the_next_boundary_of_the_running_turn(tmp_path: Path) -> None:
    script = [
        Reply(
            # The command runs until the test has seen the steering queued: on a loaded machine typing can
            # take longer than any fixed sleep.
            tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": _UNTIL_RELEASED}), id="c1"),)
        ),
        Reply(text="steered answer"),
    ]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "run a command")
            await pilot.press("enter")
            await until(
                pilot, lambda: "release" in screen_text(app) or bool(app.session and app.session.running)
            )
            await type_text(pilot, "use tabs")
            await pilot.press("alt+enter")
            pending = app.query_one(PendingList)
            await until(pilot, lambda: [p.mode for p in pending.items] == ["steer"], "the steering queued")
            (tmp_path / "release").touch()
            await until(pilot, lambda: "steered answer" in screen_text(app), "the answer")
            assert _users(app) == ["› run a command", "› (steer) use tabs"]
        bodies = [r.json() for r in server.requests]
    # One turn: the steering arrived with the command's result, before the next model request.
    assert len(bodies) == 2
    roles = [m["role"] for m in bodies[1]["messages"]]
    assert roles[-3:] == ["assistant", "tool", "user"]
    assert _user_texts(bodies[1])[-1] == "use tabs"


async def test_ctrl_s_sends_as_steering_where_the_terminal_hides_alt_enter(tmp_path: Path) -> None:
    with server_for("chat", [_slow(), Reply(text="next")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: "streaming" in screen_text(app))
            await type_text(pilot, "hint")
            await pilot.press("ctrl+s")
            assert [(p.text, p.mode) for p in app.query_one(PendingList).items] == [("hint", "steer")]


async def test_escape_interrupts_the_turn_and_the_composer_keeps_working(tmp_path: Path) -> None:
    with server_for("chat", [_slow("x" * 2000), Reply(text="after the interrupt")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "long")
            await pilot.press("enter")
            await until(pilot, lambda: "xxx" in screen_text(app), "streaming")
            await pilot.press("escape")
            await until(pilot, lambda: "interrupted" in screen_text(app), "the interrupt")
            assert app.session is not None
            assert not app.session.running
            await type_text(pilot, "again")
            await pilot.press("enter")
            await until(pilot, lambda: "after the interrupt" in screen_text(app), "the next answer")


async def test_ctrl_c_interrupts_then_clears_then_quits_when_pressed_twice(tmp_path: Path) -> None:
    with server_for("chat", [_slow("y" * 2000)]) as server:
        # A clock that stands still: every second press is "within 2 s", however slow the machine.
        async with running_app(tmp_path, tmp_path, server, size=(100, 30), clock=lambda: 0.0) as (app, pilot):
            await type_text(pilot, "long")
            await pilot.press("enter")
            await until(pilot, lambda: "yyy" in screen_text(app), "streaming")
            await pilot.press("ctrl+c")
            await until(pilot, lambda: "interrupted" in screen_text(app), "the interrupt")
            # Later than the quit window: this one only clears the composer.
            app._last_ctrl_c = -100.0
            await type_text(pilot, "draft")
            await pilot.press("ctrl+c")
            assert app.composer.text == ""
            assert app.is_running
            # Clearing the draft did not arm quitting, and the draft is in the history.
            await pilot.press("ctrl+c")
            assert app.is_running
            await pilot.press("up")
            assert app.composer.text == "draft"
            app.composer.clear()
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running, "the app to quit")
        assert app.return_value == 0


async def test_pending_input_can_be_removed_or_taken_back_for_editing(tmp_path: Path) -> None:
    with server_for("chat", [_slow()]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            session = app.session
            assert session is not None
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: "streaming" in screen_text(app))
            for text in ("drop me", "edit me"):
                await type_text(pilot, text)
                await pilot.press("enter")
            pending = app.query_one(PendingList)
            await pilot.press("tab")
            assert _focused(app) is pending
            await pilot.press("d")
            assert [p.text for p in session.pending] == ["edit me"]
            await pilot.press("e")
            assert session.pending == ()
            assert app.composer.text == "edit me"
            assert _focused(app) is app.composer
            await until(pilot, lambda: session is not None and not session.running, "the turn's end")
            await pilot.pause(0.2)
            assert _users(app) == ["› go"]
        assert len(server.requests) == 1


async def test_history_paste_newlines_and_path_completion_in_the_composer(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "module.py").write_text("x = 1\n")
    with server_for("chat", [Reply(text="ok")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            composer = app.composer
            await type_text(pilot, "first")
            await pilot.press("enter")
            await until(pilot, lambda: "ok" in screen_text(app), "the answer")
            await pilot.press("up")
            assert composer.text == "first"
            await pilot.press("down")
            assert composer.text == ""
            app.post_message(events.Paste("pasted line one\npasted line two\n"))
            await pilot.pause()
            assert composer.text == "pasted line one\npasted line two\n"
            composer.clear()
            await type_text(pilot, "a")
            await pilot.press("ctrl+j")
            await type_text(pilot, "b")
            assert composer.text == "a\nb"
            composer.clear()
            await type_text(pilot, "look at @sr")
            await pilot.press("tab")
            assert composer.text == "look at @src/"
            await pilot.press("tab")
            assert composer.text == "look at @src/module.py "
            assert app.focused is composer
        assert len(server.requests) == 1


async def test_model_text_and_command_output_reach_the_screen_without_escape_sequences(
    tmp_path: Path,
) -> None:
    hostile = "safe \x1b]0;pwned title\x07text \x1b[2J\x1b[31mred\x1b[0m \x9b31m done"
    cmd = "printf 'out \\033[2Jput \\033]0;t\\007ok\\n'"
    script = [
        Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id="c1"),)),
        Reply(text=hostile),
    ]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "hi")
            await pilot.press("enter")
            await until(pilot, lambda: "done" in screen_text(app), "the answer")
            text = screen_text(app)
            svg = app.export_screenshot()
    assert "safe text red  done" in text
    assert "out put ok" in text
    for shown in (text, svg):
        assert "\x1b" not in shown
        assert "\x9b" not in shown
        assert "\x07" not in shown


async def test_notices_from_the_session_are_shown(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        app = make_app(tui_options(tmp_path, tmp_path, server, model="no-such-model-7"))
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: bool(app.transcript.query(NoticeEntry)), "a notice")
            assert "not in the catalog" in screen_text(app)


async def test_input_queued_by_another_front_end_is_shown_when_delivered(tmp_path: Path) -> None:
    from vtcode.protocol.ops import UserInput

    with server_for("chat", [_slow(), Reply(text="answered the other one")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "mine")
            await pilot.press("enter")
            await until(pilot, lambda: "streaming" in screen_text(app), "streaming")
            session = app.session
            assert session is not None
            await session.submit(UserInput("from another terminal", intent_id="elsewhere-1"))
            await until(pilot, lambda: "answered the other one" in screen_text(app), "the second answer")
            assert _users(app) == ["› mine", "› (queued elsewhere) from another terminal"]
