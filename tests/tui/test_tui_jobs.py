"""Command cards follow their background job to its end; a killed job says so; status agrees."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.jobs_screen import JobsScreen
from vtcode.tui.screens import TextScreen


def _start(cmd: str) -> Reply:
    arguments = json.dumps({"cmd": cmd, "yield_time_ms": 300})
    return Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id="c1"),))


async def _command(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


def _status(app: VtcodeApp) -> str:
    return str(app.status_line.render())


async def test_a_killed_job_ends_its_card_as_killed_and_the_status_line_agrees(tmp_path: Path) -> None:
    script = [_start("echo started; sleep 60"), Reply(text="left it running")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "start a server")
            await until(pilot, lambda: "left it running" in screen_text(app), "the answer")
            await until(pilot, lambda: "jobs 1" in _status(app), "the job in the status line")
            assert "running…" in screen_text(app)
            await _command(pilot, "/jobs")
            assert isinstance(app.screen, JobsScreen)
            await pilot.press("k")
            await pilot.press("escape")
            await until(pilot, lambda: "killed (SIGTERM)" in screen_text(app), "the card to end")
            assert "running…" not in screen_text(app)
            assert "exit -15" not in screen_text(app)
            await until(pilot, lambda: "jobs" not in _status(app), "the status line")
            session = app.session
            assert session is not None
            assert session.status().running_jobs == 0


async def test_a_job_that_ends_by_itself_ends_its_card(tmp_path: Path) -> None:
    script = [_start("sleep 1; echo finished"), Reply(text="it runs")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "start it")
            await until(pilot, lambda: "it runs" in screen_text(app), "the answer")
            await until(pilot, lambda: "exit 0 (in the background)" in screen_text(app), "the card to end")
            assert "running…" not in screen_text(app)
            await until(pilot, lambda: "jobs" not in _status(app), "the status line")


async def test_jobs_show_of_a_big_output_shows_its_start_and_end_and_names_its_file(tmp_path: Path) -> None:
    script = [_start("seq 1 200000; echo all-out; sleep 60"), Reply(text="left it running")]
    with server_for("chat", script) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await _command(pilot, "count in the background")
            await until(pilot, lambda: "left it running" in screen_text(app), "the answer")
            await _command(pilot, "/jobs")
            jobs = app.screen
            assert isinstance(jobs, JobsScreen)
            job = jobs.shown[0]
            await until(pilot, lambda: "all-out" in jobs.jobs.output(job.id), "the whole output")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "the output view")
            view = app.screen
            assert isinstance(view, TextScreen)
            assert isinstance(view.body, str)
            lines = view.body.split("\n")
            # The view reads the end of the spool: its first line may be cut.
            assert len(lines) == 2002
            assert lines[1000].endswith(
                f"not shown here: the whole output is in .vtcode/context/tool_outputs/{job.id}.log …]"
            )
            assert lines[-3:] == ["200000", "all-out", ""]
            await pilot.press("escape")
            await pilot.press("k")
