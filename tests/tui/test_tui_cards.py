"""Tool cards say what happened: the tool, the path, the reason, and the whole output on request."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.approval import ApprovalScreen
from vtcode.tui.screens import TextScreen
from vtcode.tui.transcript import CommandCard


def _call(name: str, arguments: dict[str, str]) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id="c1"),))


async def test_a_two_thousand_line_output_card_says_what_it_hides_and_opens_in_full(tmp_path: Path) -> None:
    script = [_call("exec_command", {"cmd": "seq 1 2000"}), Reply(text="counted")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "count")
            await pilot.press("enter")
            await until(pilot, lambda: "counted" in screen_text(app), "the answer")
            assert "1,994 lines hidden" in screen_text(app)
            card = app.transcript.query_one(CommandCard)
            card.focus()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "the full output")
            screen = app.screen
            assert isinstance(screen, TextScreen)
            assert screen.body == "".join(f"{n}\n" for n in range(1, 2001))


async def test_a_card_whose_output_the_tool_cut_counts_the_hidden_lines_exactly(tmp_path: Path) -> None:
    # Far past the tool's preview: the result holds a head, an "omitted" marker line and a tail.
    script = [_call("exec_command", {"cmd": "seq 1 200000"}), Reply(text="counted")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "count")
            await pilot.press("enter")
            await until(pilot, lambda: "counted" in screen_text(app), "the answer")
            # 200,000 lines, the last 6 shown.
            assert "199,994 lines hidden" in screen_text(app)
            assert "199995\n199996\n199997\n199998\n199999\n200000\n  exit 0" in screen_text(app)


async def test_a_huge_output_opens_as_its_start_and_end_with_the_file_that_holds_it_all(
    tmp_path: Path,
) -> None:
    script = [_call("exec_command", {"cmd": "seq 1 200000"}), Reply(text="counted")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "count")
            await pilot.press("enter")
            await until(pilot, lambda: "counted" in screen_text(app), "the answer")
            card = app.transcript.query_one(CommandCard)
            assert card.item.session_id is not None
            spool = f".vtcode/context/tool_outputs/{card.item.session_id}.log"
            card.focus()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "the output view")
            screen = app.screen
            assert isinstance(screen, TextScreen)
            assert isinstance(screen.body, str)
            lines = screen.body.split("\n")
            assert lines[:3] == ["1", "2", "3"]
            assert lines[999] == "1000"
            assert lines[1000].startswith("[… 198,000 lines, ")
            assert lines[1000].endswith(f" characters not shown here: the whole output is in {spool} …]")
            assert lines[1001:] == [str(n) for n in range(199001, 200001)] + [""]
    assert (tmp_path / spool).read_text() == "".join(f"{n}\n" for n in range(1, 200001))


async def test_a_declined_edit_names_the_tool_the_path_and_the_reason(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("one\n")
    patch = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-one\n+two\n*** End Patch\n"
    script = [_call("apply_patch", {"patch": patch}), Reply(text="left alone")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, approval="ask", size=(100, 30)) as (app, pilot):
            await type_text(pilot, "edit")
            await pilot.press("enter")
            await until(
                pilot, lambda: isinstance(app.screen, ApprovalScreen) and app.screen.armed, "the dialog"
            )
            await pilot.press("n")
            await type_text(pilot, "not today")
            await pilot.press("enter")
            await until(pilot, lambda: "left alone" in screen_text(app), "the answer")
            shown = screen_text(app)
            assert "Edit files notes.txt  (not run)" in shown
            assert "not today" in shown


async def test_a_failed_read_says_why(tmp_path: Path) -> None:
    script = [_call("read_file", {"path": "missing.txt"}), Reply(text="no such file then")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "read it")
            await pilot.press("enter")
            await until(pilot, lambda: "no such file then" in screen_text(app), "the answer")
            shown = screen_text(app)
            assert "read_file missing.txt  (failed)" in shown
            assert "missing.txt" in shown.split("(failed)")[1]
