"""Run-to-completion commands: output, exit codes, time limits and process-group cleanup."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from vtcode.exec.process_group import group_alive
from vtcode.exec.run import run_command


async def test_merged_output_and_exit_code(tmp_path: Path) -> None:
    result = await run_command(
        "echo out; echo err >&2; exit 3", cwd=tmp_path, time_limit=10, max_output_bytes=1000
    )
    assert (result.exit_code, result.timed_out) == (3, False)
    assert sorted(result.output.split()) == ["err", "out"]


async def test_runs_in_the_given_directory(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    result = await run_command("pwd", cwd=tmp_path / "sub", time_limit=10, max_output_bytes=1000)
    assert result.output.strip() == str(tmp_path / "sub")


async def test_long_output_keeps_head_and_tail_with_marker(tmp_path: Path) -> None:
    result = await run_command("seq 1 100000", cwd=tmp_path, time_limit=30, max_output_bytes=2000)
    lines = result.output.splitlines()
    assert lines[0] == "1"
    assert lines[-1] == "100000"
    assert any("bytes" in line and "lines omitted" in line for line in lines)
    assert len(result.output) < 2300
    assert result.total_bytes == len("\n".join(str(i) for i in range(1, 100001))) + 1


async def test_time_limit_kills_the_whole_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    started = time.monotonic()
    result = await run_command(
        f"sleep 60 & echo $! > {pidfile}; wait", cwd=tmp_path, time_limit=0.5, max_output_bytes=1000
    )
    assert result.timed_out
    assert result.exit_code is None
    assert time.monotonic() - started < 10
    child = int(pidfile.read_text())
    await asyncio.sleep(0.1)
    assert not _alive(child)


async def test_background_child_holding_the_pipe_does_not_hang(tmp_path: Path) -> None:
    pidfile = tmp_path / "bg.pid"
    started = time.monotonic()
    result = await run_command(
        f"(sleep 60 & echo $! > {pidfile}); echo done", cwd=tmp_path, time_limit=30, max_output_bytes=1000
    )
    assert result.exit_code == 0
    assert "done" in result.output
    assert time.monotonic() - started < 10
    assert not _alive(int(pidfile.read_text()))


async def test_cancellation_terminates_the_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "c.pid"
    task = asyncio.create_task(
        run_command(f"echo $$ > {pidfile}; sleep 60", cwd=tmp_path, time_limit=60, max_output_bytes=100)
    )
    for _ in range(100):
        if pidfile.exists() and pidfile.read_text().strip():
            break
        await asyncio.sleep(0.05)
    pgid = int(pidfile.read_text())
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not group_alive(pgid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); it is gone for our purposes once its state says so.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"
