"""`@path` in the composer: completion and the picker write paths with spaces so they read back as one
path, and what a sent message mentions reaches the model attached."""

from __future__ import annotations

from pathlib import Path

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.file_picker import FilePicker


def _spaced_file(workspace: Path) -> None:
    folder = workspace / "my notes"
    folder.mkdir()
    (folder / "todo list.md").write_text("buy milk\n")


async def test_tab_completion_quotes_a_path_with_spaces_and_the_file_is_attached(tmp_path: Path) -> None:
    _spaced_file(tmp_path)
    with server_for("chat", [Reply(text="read it")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            composer = app.composer
            await type_text(pilot, "summarize @my")
            await pilot.press("tab")
            assert composer.text == 'summarize @"my notes/'
            await type_text(pilot, "to")
            await pilot.press("tab")
            assert composer.text == 'summarize @"my notes/todo list.md" '
            await pilot.press("enter")
            await until(pilot, lambda: "read it" in screen_text(app), "the answer")
            assert "attached: my notes/todo list.md" in screen_text(app)
    messages = server.requests[0].json()["messages"]
    assert messages[-1]["content"] == 'summarize @"my notes/todo list.md" '
    assert messages[-2]["content"].endswith('<file path="my notes/todo list.md">\nbuy milk\n</file>')


async def test_the_file_picker_inserts_a_path_with_spaces_quoted(tmp_path: Path) -> None:
    _spaced_file(tmp_path)
    (tmp_path / "list.txt").write_text("other\n")
    with server_for("chat", []) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "see @tod")
            await pilot.press("tab")
            await until(pilot, lambda: isinstance(app.screen, FilePicker), "the file picker")
            picker = app.screen
            assert isinstance(picker, FilePicker)
            await until(pilot, lambda: picker.shown == ["my notes/todo list.md"], "the match")
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, FilePicker), "the picker closing")
            assert app.composer.text == 'see @"my notes/todo list.md" '


async def test_a_folder_can_be_picked_and_its_listing_is_attached(tmp_path: Path) -> None:
    _spaced_file(tmp_path)
    with server_for("chat", [Reply(text="listed")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "what is in @notes")
            await pilot.press("tab")
            await until(pilot, lambda: isinstance(app.screen, FilePicker), "the file picker")
            picker = app.screen
            assert isinstance(picker, FilePicker)
            await until(pilot, lambda: picker.shown[:1] == ["my notes/"], "the folder first")
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, FilePicker), "the picker closing")
            assert app.composer.text == 'what is in @"my notes/" '
            await pilot.press("enter")
            await until(pilot, lambda: "listed" in screen_text(app), "the answer")
    messages = server.requests[0].json()["messages"]
    assert messages[-2]["content"].endswith('<directory path="my notes">\ntodo list.md\n</directory>')
