"""Live output while a call waits, and what happens to sessions when calls are cancelled or vtcode exits."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import msgspec
import pytest

from tests.exec.helpers import Harness, alive, gone, group_members, read_pid
from vtcode.exec.progress import PROGRESS_KEEP_BYTES, ExecProgress


async def test_progress_reports_output_while_the_call_waits(tmp_path: Path) -> None:
    reports: list[ExecProgress] = []
    async with Harness(tmp_path) as h:
        h.ctx = msgspec.structs.replace(h.ctx, progress=reports.append)
        result = await h.run(cmd="for i in 1 2 3 4; do echo step $i; sleep 0.3; done", yield_time_ms=5000)
    assert result["output"] == "step 1\nstep 2\nstep 3\nstep 4\n"
    assert len(reports) >= 2
    # Reports arrive in order; the last stretch may come only with the result itself.
    assert result["output"].startswith("".join(r.text for r in reports))
    assert {(r.session_id, r.command) for r in reports} == {(result["session_id"], result["command"])}
    assert reports[-1].total_output_bytes <= result["total_output_bytes"]


async def test_progress_reports_are_bounded(tmp_path: Path) -> None:
    reports: list[ExecProgress] = []
    async with Harness(tmp_path) as h:
        h.ctx = msgspec.structs.replace(h.ctx, progress=reports.append)
        await h.run(cmd="seq 1 300000; sleep 0.5")
    assert reports
    assert all(len(r.text.encode()) <= PROGRESS_KEEP_BYTES for r in reports)
    assert reports[-1].text.endswith("300000\n")
    assert sum(r.skipped_bytes for r in reports) > 0


async def test_no_progress_sink_no_reports(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run(cmd="echo quiet")
    assert result["output"] == "quiet\n"


async def test_cancelled_start_call_ends_the_session(tmp_path: Path) -> None:
    """Nobody learned the session's id, so nothing could ever reach it: it is ended with the call."""
    async with Harness(tmp_path) as h:
        call = asyncio.create_task(h.run(cmd="echo $$ > s.pid; sleep 100 & sleep 100", yield_time_ms=30_000))
        pgid = await read_pid(tmp_path / "s.pid")
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert group_members(pgid) == []
        assert not h.manager.sessions


async def test_aclose_ends_every_session_and_leftover_daemon(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        running = await h.run(cmd="echo $$ > a.pid; sleep 100", yield_time_ms=250)
        # A daemon with its own log outlives its finished session (collecting never kills) ...
        daemon = await h.run(cmd="sleep 100 > /dev/null 2>&1 & echo $! > d.pid")
        assert daemon["is_exited"] is True
        assert daemon["session_id"] not in h.manager.sessions
        shell, daemon_pid = await read_pid(tmp_path / "a.pid"), await read_pid(tmp_path / "d.pid")
        assert running["is_exited"] is False
        assert alive(daemon_pid)
    # ... until vtcode exits.
    assert await gone(shell)
    assert await gone(daemon_pid)


async def test_failed_command_is_an_error_outcome_and_running_is_not(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        failed = await h.exec_tool.run({"cmd": "exit 2"}, h.ctx)
        running = await h.exec_tool.run({"cmd": "sleep 5", "yield_time_ms": 250}, h.ctx)
    assert (failed.is_error, failed.exit_code) == (True, 2)
    assert (running.is_error, running.exit_code) == (False, None)
    assert running.extra == {"session_id": json.loads(running.content)["session_id"], "command": "sleep 5"}
