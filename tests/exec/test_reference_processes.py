"""Acceptance cases 41-44 of reference exec-spool-release.md section 12: limits, kill, environment, workdir.

Plus the escapee case of python-stack.md section 5 (a `setsid` child caught by the subreaper).
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.exec.helpers import Harness, gone, read_pid, real
from vtcode.exec.manager import ExecSettings
from vtcode.exec.process_group import disable_subreaper


async def test_ref41_session_limit_until_one_ends(tmp_path: Path) -> None:
    settings = ExecSettings(subreaper=False, max_sessions=1)
    async with Harness(tmp_path, settings) as h:
        first = await h.run(cmd="sleep 30", tty=True, yield_time_ms=250)
        refused = await h.run(cmd="sleep 30", yield_time_ms=250)
        assert "Maximum command sessions (1) reached" in refused["error"]["message"]
        assert first["session_id"] in refused["error"]["message"]
        await h.stdin(session_id=first["session_id"], action="kill")
        accepted = await h.run(cmd="true")
        assert accepted["exit_code"] == 0


async def test_ref42_kill_ends_the_group_with_term_then_kill(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        pipe = await h.run(
            cmd="sleep 100 & echo $! > a.pid; sleep 100 & echo $! > b.pid; wait", yield_time_ms=250
        )
        children = [await read_pid(tmp_path / "a.pid"), await read_pid(tmp_path / "b.pid")]
        result = await h.stdin(session_id=pipe["session_id"], action="kill")
        assert (result["is_exited"], result["signal"]) == (True, "SIGTERM")
        assert all([await gone(pid) for pid in children])
        stubborn = await h.run(
            cmd="trap '' TERM; echo $$ > t.pid; while :; do sleep 0.1; done", tty=True, yield_time_ms=500
        )
        shell = await read_pid(tmp_path / "t.pid")
        killed = await h.stdin(session_id=stubborn["session_id"], action="kill")
        assert killed["signal"] == "SIGKILL"
        assert await gone(shell)


async def test_ref43_child_environment(tmp_path: Path) -> None:
    show = "echo $NO_COLOR $PAGER $GIT_PAGER $CARGO_TERM_COLOR $WORKSPACE_DIR; echo $TERM $COLUMNS $LINES"
    async with Harness(tmp_path) as h:
        pipe = await h.run(cmd=show)
        pty = await h.run(cmd=show, tty=True)
    root = real(tmp_path)
    assert pipe["output"].splitlines()[0] == f"1 cat cat never {root}"
    assert pty["output"].splitlines() == [f"1 cat cat never {root}", "xterm-256color 80 24"]


async def test_ref44_workdir_errors(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "sub").mkdir()
    async with Harness(tmp_path) as h:
        escapes = await h.run(cmd="true", workdir="../")
        missing = await h.run(cmd="true", workdir="nope")
        not_dir = await h.run(cmd="true", workdir="file.txt")
        inside = await h.run(cmd="pwd", workdir="sub")
    assert "escapes the workspace root" in escapes["error"]["message"]
    assert "does not exist" in missing["error"]["message"]
    assert "is not a directory" in not_dir["error"]["message"]
    assert (inside["output"], inside["working_directory"]) == (
        f"{real(tmp_path / 'sub')}\n",
        "sub",
    )


async def test_setsid_escapee_is_caught_with_the_subreaper(tmp_path: Path) -> None:
    """python-stack.md section 5: `setsid` leaves the group; the marker and the subreaper still find it."""
    settings = ExecSettings(subreaper=True)
    try:
        async with Harness(tmp_path, settings) as h:
            started = await h.run(cmd="(setsid sleep 100 & echo $! > e.pid); sleep 100", yield_time_ms=250)
            escapee = await read_pid(tmp_path / "e.pid")
            assert os.getpgid(escapee) != os.getpgid(os.getpid())
            await h.stdin(session_id=started["session_id"], action="kill")
            assert await gone(escapee)
    finally:
        disable_subreaper()
