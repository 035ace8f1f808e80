"""Edit approvals show what would change: the diff of a patch, the lines of a new file."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from textual.widgets import Static

from tests.tui.tui_helpers import (
    check_snapshot,
    running_app,
    running_app_on,
    screen_text,
    tui_options,
    type_text,
    until,
)
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.approval import ApprovalScreen

_ORIGINAL = "".join(f"line {n}\n" for n in range(1, 41))
_PATCH = """*** Begin Patch
*** Update File: numbers.txt
@@
 line 4
-line 5
+line five
 line 6
@@
 line 19
-line 20
+line twenty
 line 21
@@
 line 34
-line 35
+line thirty-five
 line 36
*** End Patch
"""


def _call(name: str, arguments: dict[str, str]) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id="c1"),))


def _dialog_diff(app: VtcodeApp) -> str:
    return str(app.screen.query_one("#approval-diff", Static).render())


async def test_the_edit_approval_shows_the_diff_of_a_three_hunk_patch(tmp_path: Path) -> None:
    (tmp_path / "numbers.txt").write_text(_ORIGINAL)
    script = [_call("apply_patch", {"patch": _PATCH}), Reply(text="patched")]
    with server_for("chat", script) as server:
        # A still clock: the spinner's frame and elapsed time are the same in every run.
        async with running_app(
            tmp_path, tmp_path, server, approval="ask", size=(100, 40), clock=lambda: 0.0
        ) as (app, pilot):
            await type_text(pilot, "patch it")
            await pilot.press("enter")
            await until(
                pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "the dialog"
            )
            diff = _dialog_diff(app)
            assert diff.count("@@") >= 3
            for old, new in (("5", "five"), ("20", "twenty"), ("35", "thirty-five")):
                assert f"-line {old}\n+line {new}" in diff
            assert "~ numbers.txt" in diff
            assert (tmp_path / "numbers.txt").read_text() == _ORIGINAL
            await check_snapshot(pilot, "edit_approval_100x40")
            await pilot.press("y")
            await until(pilot, lambda: "patched" in screen_text(app), "the answer")
    assert "line thirty-five\n" in (tmp_path / "numbers.txt").read_text()


async def test_a_new_file_approval_shows_its_content(tmp_path: Path) -> None:
    content = "".join(f"row {n}\n" for n in range(1, 6))
    script = [_call("write_file", {"path": "fresh.txt", "content": content}), Reply(text="written")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 40)) as (app, pilot):
            await type_text(pilot, "write it")
            await pilot.press("enter")
            await until(
                pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "the dialog"
            )
            diff = _dialog_diff(app)
            assert "+ fresh.txt" in diff
            assert "+row 1\n+row 2\n+row 3\n+row 4\n+row 5" in diff
            assert not (tmp_path / "fresh.txt").exists()
            await pilot.press("escape")
            await until(pilot, lambda: "written" in screen_text(app), "the answer")
    assert not (tmp_path / "fresh.txt").exists()


def _added_folder(tmp_path: Path) -> tuple[Path, Path]:
    workspace, added = tmp_path / "ws", tmp_path / "added"
    workspace.mkdir()
    added.mkdir()
    return workspace, added


async def _approval_diff(tmp_path: Path, workspace: Path, added: Path, call: Reply) -> str:
    """The diff the approval dialog shows for `call` in a session with `added` as an added folder;
    the call is then declined."""
    with server_for("chat", [call, Reply(text="declined")]) as server:
        opts = tui_options(workspace, tmp_path, server, approval="ask")
        with_added = dataclasses.replace(opts, added_dirs=(added,))
        async with running_app_on(with_added, size=(100, 40)) as (app, pilot):
            await type_text(pilot, "edit it")
            await pilot.press("enter")
            await until(
                pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "the dialog"
            )
            diff = _dialog_diff(app)
            await pilot.press("escape")
            await until(pilot, lambda: "declined" in screen_text(app), "the answer")
    return diff


async def test_the_edit_approval_shows_the_diff_of_a_patch_in_an_added_folder(tmp_path: Path) -> None:
    workspace, added = _added_folder(tmp_path)
    (added / "numbers.txt").write_text(_ORIGINAL)
    patch = _PATCH.replace("numbers.txt", f"{added}/numbers.txt")
    diff = await _approval_diff(tmp_path, workspace, added, _call("apply_patch", {"patch": patch}))
    assert f"~ {added.resolve()}/numbers.txt" in diff
    for old, new in (("5", "five"), ("20", "twenty"), ("35", "thirty-five")):
        assert f"-line {old}\n+line {new}" in diff
    assert (added / "numbers.txt").read_text() == _ORIGINAL


async def test_the_edit_approval_shows_a_file_write_in_an_added_folder(tmp_path: Path) -> None:
    workspace, added = _added_folder(tmp_path)
    (added / "notes.txt").write_text("old line\n")
    call = _call("write_file", {"path": f"{added}/notes.txt", "content": "new line\n"})
    diff = await _approval_diff(tmp_path, workspace, added, call)
    assert f"~ {added.resolve()}/notes.txt" in diff
    assert "-old line\n+new line" in diff
    assert (added / "notes.txt").read_text() == "old line\n"
