"""Command sessions as SPEC section 8 specifies them, with real processes, PTYs and files."""

from __future__ import annotations

import asyncio
import os
import resource
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.exec.helpers import Harness, alive, gone, read_pid


async def test_sleep_then_done_yield_wait_deadline_then_wait_exit(tmp_path: Path) -> None:
    """`sleep 3; echo done`, yield 250 ms → running; wait 1 s → still running, alive; wait → exit 0, done."""
    async with Harness(tmp_path) as h:
        first = await h.run(cmd="echo $$ > shell.pid; sleep 3; echo done", yield_time_ms=250)
        assert first["is_exited"] is False
        assert first["next_wait_args"] == {
            "session_id": first["session_id"],
            "action": "wait",
            "wait_timeout_seconds": 600,
        }
        shell = await read_pid(tmp_path / "shell.pid")
        second = await h.stdin(**{**first["next_wait_args"], "wait_timeout_seconds": 1})
        assert (second["is_exited"], second["wait_deadline_seconds"]) == (False, 1)
        assert "next_wait_args" in second
        assert alive(shell)
        third = await h.stdin(**second["next_wait_args"])
        assert (third["is_exited"], third["exit_code"], third["output"]) == (True, 0, "done\n")
        assert first["session_id"] not in h.manager.sessions


async def test_wait_returns_within_100ms_of_the_process_exit(tmp_path: Path) -> None:
    """The only timed assertion: the process writes its exit time as its last act; best of three runs."""
    gaps = []
    async with Harness(tmp_path) as h:
        for attempt in range(3):
            stamp = tmp_path / f"exit-{attempt}.txt"
            started = await h.run(
                cmd=f"sleep 1; python3 -c 'import time; print(time.time())' > {stamp}", yield_time_ms=250
            )
            result = await h.stdin(session_id=started["session_id"], action="wait", wait_timeout_seconds=30)
            returned = time.time()
            assert result["is_exited"] is True
            gaps.append(returned - float(stamp.read_text()))
    assert min(gaps) < 0.1, gaps


async def test_200000_lines_bounded_preview_spool_byte_for_byte_complete_only_after_drain(
    tmp_path: Path,
) -> None:
    expected = b"".join(b"%d\n" % i for i in range(1, 200_001))
    async with Harness(tmp_path) as h:
        running = await h.run(cmd="seq 1 200000; sleep 1", yield_time_ms=250, max_output_tokens=500)
        assert running["is_exited"] is False
        # A readable partial snapshot while the command runs, never called complete.
        assert (running["spool_path"], running["spool_complete"]) == (
            f".vtcode/context/tool_outputs/{running['session_id']}.log",
            False,
        )
        done = await h.stdin(session_id=running["session_id"], action="wait")
        assert (done["is_exited"], done["output_drained"], done["spool_complete"]) == (True, True, True)
        lines = running["output"].splitlines()
        assert lines[0] == "1"
        assert lines[-1] == "200000"
        marker = next(line for line in lines if line.startswith("[…"))
        assert f"{running['omitted_bytes']} bytes, {running['omitted_lines']} lines omitted" in marker
        assert len(running["output"].encode()) <= 2000
        assert (tmp_path / done["spool_path"]).read_bytes() == expected
        assert done["total_output_bytes"] == done["spooled_bytes"] == len(expected)


async def test_background_child_keeps_stdout_open_shell_exited_not_drained_kill_ends_child(
    tmp_path: Path,
) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run(cmd="sleep 60 & echo $! > bg.pid; echo started", yield_time_ms=3000)
        child = await read_pid(tmp_path / "bg.pid")
        assert (result["is_exited"], result["exit_code"], result["output_drained"]) == (True, 0, False)
        assert (result["spool_pending"], result["spool_pending_reason"]) == (True, "stream_held_open")
        assert "spool_path" not in result
        assert result["output"] == "started\n"
        assert alive(child)
        killed = await h.stdin(session_id=result["session_id"], action="kill")
        assert killed["is_exited"] is True
        assert killed["output_drained"] is True
        assert await gone(child)
        assert result["session_id"] not in h.manager.sessions


async def test_multibyte_characters_split_across_reads_arrive_intact(tmp_path: Path) -> None:
    """Acceptance 35 [I] too: spool and preview both hold the euro sign."""
    async with Harness(tmp_path) as h:
        result = await h.run(
            cmd=r"printf '\342\202'; sleep 0.3; printf '\254 \360\237'; sleep 0.3; printf '\231\202\n'"
        )
        assert result["output"] == "€ 🙂\n"
        assert h.spool(result).read_bytes() == "€ 🙂\n".encode()


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs as the workspace (needs mount rights; skipped elsewhere)."""
    mount = tmp_path / "small"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], check=False)
    if done.returncode != 0:
        pytest.skip("tmpfs mount not permitted here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


async def test_spool_write_failure_on_a_full_filesystem_is_reported_command_completes(small_fs: Path) -> None:
    async with Harness(small_fs) as h:
        result = await h.run(
            cmd="head -c 300000 /dev/zero | tr '\\0' q; echo; echo finished", yield_time_ms=20000
        )
        assert (result["is_exited"], result["exit_code"]) == (True, 0)
        assert "ENOSPC" in result["spool_error"]
        assert "spool_path" not in result
        assert "spool_pending" not in result
        assert result["output"].endswith("finished\n")
        assert result["total_output_bytes"] == 300_000 + 10
        assert result["output_truncated"] is True


async def test_spool_write_failure_under_a_file_size_limit_is_reported_command_completes(
    tmp_path: Path,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    async with Harness(tmp_path) as h:
        resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, hard))
        try:
            started = await h.run(cmd="seq 1 100000; sleep 0.5; echo end", yield_time_ms=250)
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        done = await h.stdin(session_id=started["session_id"], action="wait")
    for result in (started, done):
        assert "spool_path" not in result
        assert "spool_complete" not in result
        assert "EFBIG" in result["spool_error"]
    assert (done["is_exited"], done["exit_code"]) == (True, 0)
    assert done["output"].endswith("end\n")


async def test_pty_session_with_an_interactive_program_answers_input(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        repl = await h.run(cmd="python3 -i -q", tty=True, yield_time_ms=1500)
        assert (repl["is_exited"], repl["backend"], repl["rows"], repl["cols"]) == (False, "pty", 24, 80)
        answer = await h.stdin(session_id=repl["session_id"], chars="print(6*7)\n", yield_time_ms=1500)
        assert "42" in answer["output"].splitlines()
        bye = await h.stdin(session_id=repl["session_id"], chars="exit()\n", yield_time_ms=3000)
        assert (bye["is_exited"], bye["exit_code"]) == (True, 0)
        cat = await h.run(cmd="cat", tty=True, yield_time_ms=300)
        echoed = await h.stdin(session_id=cat["session_id"], chars=f"{uuid.uuid4().hex}\n")
        token = echoed["output"].splitlines()[0]
        assert echoed["output"] == f"{token}\n{token}\n"  # the terminal's echo, then cat's answer


async def test_write_stdin_wait_is_cancellable_and_never_kills(tmp_path: Path) -> None:
    """Acceptance 15 and 17: a wait deadline never kills; a cancelled wait leaves the session to its owner."""
    async with Harness(tmp_path) as h:
        started = await h.run(cmd="echo $$ > s.pid; sleep 100 & sleep 100", yield_time_ms=250)
        shell = await read_pid(tmp_path / "s.pid")
        waiting = asyncio.create_task(h.stdin(session_id=started["session_id"], action="wait"))
        await asyncio.sleep(0.3)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert alive(shell)
        assert started["session_id"] in h.manager.sessions
    assert await gone(shell)
