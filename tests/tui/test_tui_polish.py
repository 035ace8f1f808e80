"""Small things a newcomer trips over: command completion, starting over mid-turn, where config lives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.geometry import Region
from textual.pilot import Pilot

from tests.runtime.session_helpers import options
from tests.tui.tui_helpers import make_app, running_app, screen_text, type_text, until
from vtcode.config.schema import Settings
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.file_picker import FilePicker
from vtcode.tui.screens import SetupScreen
from vtcode.tui.transcript import AnswerEntry


async def _command(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


async def test_tab_completes_slash_commands_and_a_typo_gets_a_suggestion(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "/perm")
            await pilot.press("tab")
            assert app.composer.text == "/permissions "
            assert app.focused is app.composer
            app.composer.clear()
            await type_text(pilot, "/st")
            await pilot.press("tab")
            assert app.composer.completions == ["status", "steer"]
            app.composer.clear()
            await _command(pilot, "/stauts")
            await until(pilot, lambda: "did you mean /status" in screen_text(app), "the suggestion")
            # Tab with nothing to complete keeps the focus (and the next keys) in the composer.
            await type_text(pilot, "plain")
            await pilot.press("tab")
            await type_text(pilot, "text")
            assert app.composer.text == "plaintext"


async def test_new_during_a_turn_asks_before_interrupting_it(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="slow", delay_before=20)]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            first = app.session
            await _command(pilot, "think")
            await until(pilot, lambda: first is not None and first.running, "the turn")
            await _command(pilot, "/new")
            await until(pilot, lambda: "/new again interrupts it" in screen_text(app), "the question")
            assert app.session is first
            assert first is not None
            assert first.running
            await _command(pilot, "/new")
            await until(pilot, lambda: app.session is not None and app.session is not first, "a new session")


async def test_the_setup_screen_names_the_config_file_under_vtcode_home(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        base = options(tmp_path, tmp_path, server)
    elsewhere = tmp_path / "elsewhere" / "vtcode-home"
    no_provider = SessionOptions(
        workspace=tmp_path,
        settings=Settings(),
        home=elsewhere,
        env={"HOME": str(tmp_path / "home"), "VTCODE_HOME": str(elsewhere)},
        headless=False,
    )
    assert base.home != elsewhere
    app = make_app(no_provider)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")
        await until(pilot, lambda: bool(app.screen.query("#setup-text")), "its text")
        shown = str(app.screen.query_one("#setup-text").render())
        assert f"or in {elsewhere / 'vtcode.toml'}:" in shown
        assert "~/.vtcode" not in shown


async def test_numbered_lists_keep_their_dots_and_wrapped_code_keeps_its_indentation(tmp_path: Path) -> None:
    answer = (
        "Steps:\n\n1. first\n2. second\n\n```python\ndef f():\n"
        "    return some_very_long_function_name(argument_one, argument_two, argument_three)\n```\n"
    )
    with server_for("chat", [Reply(text=answer)]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(60, 30)) as (app, pilot):
            await _command(pilot, "show me")
            await until(pilot, lambda: "argument_three" in screen_text(app), "the answer")
            entry = app.transcript.query_one(AnswerEntry)
            await until(pilot, lambda: entry.completed and entry.size.height > 5, "the layout")
            await pilot.pause(0.2)
            lines = [strip.text.rstrip() for strip in entry.render_lines(Region(0, 0, *entry.size))]
    assert any(line.strip() == "1. first" for line in lines)
    assert any(line.strip() == "2. second" for line in lines)
    code = [line for line in lines if "argument" in line]
    assert len(code) >= 2
    indents = [len(line) - len(line.lstrip()) for line in code]
    assert indents[1] == indents[0]


async def test_the_at_picker_searches_fuzzily_skips_ignored_files_and_inserts_the_choice(
    tmp_path: Path,
) -> None:
    (tmp_path / "src" / "vtcode").mkdir(parents=True)
    (tmp_path / "src" / "vtcode" / "approval_screen.py").write_text("x = 1\n")
    (tmp_path / "src" / "vtcode" / "app.py").write_text("x = 1\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "approval_screen.py").write_text("generated\n")
    (tmp_path / ".gitignore").write_text("build/\n")
    with server_for("chat", []) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "look at @apscr")
            await pilot.press("tab")
            await until(
                pilot, lambda: isinstance(app.screen, FilePicker) and bool(app.screen.shown), "the picker"
            )
            picker = app.screen
            assert isinstance(picker, FilePicker)
            assert picker.shown == ["src/vtcode/approval_screen.py"]
            await pilot.press("backspace", "backspace", "backspace", "backspace")
            await until(pilot, lambda: len(picker.shown) >= 2, "more matches")
            assert all(not path.startswith("build/") for path in picker.shown)
            await pilot.press("down")
            chosen = picker.shown[1]
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, FilePicker), "the choice")
            assert app.composer.text == f"look at @{chosen} "
