"""A hook that floods its output: its timeout still ends it, and what it printed stays bounded."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, script, user_config
from vtcode.testing.script import Reply


def test_a_hook_flooding_its_output_is_ended_at_its_timeout_and_the_tool_runs(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    flood = script(tmp_path / "flood.sh", "cat > /dev/null\nexec yes\n")
    user_config(
        isolated_home,
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{flood}"\n'
        "timeout = 1\n",
    )
    run = exec_run(
        vtcode,
        ws,
        [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")],
        "--approval",
        "full-auto",
    )
    assert run.result.code == 0, run.result.stderr
    assert (ws / "ran.txt").exists()
    notices = [e["message"] for e in run.of("notice")]
    assert any("ran longer than its timeout of 1 s" in n for n in notices), notices
    # Nothing else reaches the user's terminal (asyncio's "Unknown child process" once did).
    assert run.result.stderr == ""
    assert [e["outcome"] for e in run.of("hook.completed")] == ["timed_out"]


def test_a_blocking_hook_flooding_stdout_and_stderr_is_read_to_its_end(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    loud = script(
        tmp_path / "loud.sh",
        "cat > /dev/null\nhead -c 8000000 /dev/zero | tr '\\0' x\necho 'no rm here' >&2\nexit 2\n",
    )
    user_config(
        isolated_home,
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{loud}"\n',
    )
    run = exec_run(
        vtcode,
        ws,
        [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")],
        "--approval",
        "full-auto",
    )
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert "no rm here" in run.tool_results()[0]


def test_a_hook_that_leaves_a_process_running_is_done_when_it_exits(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    pid_file = tmp_path / "server.pid"
    # A dev server started in the background keeps the hook's stdout open long after the hook exited.
    start = script(
        tmp_path / "start.sh",
        f"cat > /dev/null\nsleep 300 &\necho $! > {pid_file}\necho 'dev server on :3000'\n",
    )
    user_config(isolated_home, f'[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ncommand = "{start}"\n')
    try:
        run = exec_run(vtcode, ws, [Reply(text="ok")])
    finally:
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
    assert run.result.code == 0, run.result.stderr
    assert any("dev server on :3000" in text for text in run.user_texts())
    assert [e["outcome"] for e in run.of("hook.completed")] == ["success"]
    assert "Traceback" not in run.result.stderr
