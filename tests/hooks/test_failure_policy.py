"""A hook that crashes, times out, prints garbage or does not exist: `on_failure = "block"` blocks the
tool, the default lets it run with a warning the user sees (never silently)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, script, user_config
from vtcode.testing.script import Reply

FAILURES = {
    "timeout": "cat > /dev/null\nsleep 30\n",
    "exit_1": "cat > /dev/null\necho broken >&2\nexit 1\n",
    "garbage": "cat > /dev/null\necho '[1]'\n",
}


def _configure(home: Path, tmp_path: Path, failure: str, policy: str | None) -> None:
    if failure == "missing":
        command = str(tmp_path / "no-such-hook.sh")
    else:
        command = str(script(tmp_path / "hook.sh", FAILURES[failure]))
    line = f'on_failure = "{policy}"\n' if policy else ""
    user_config(
        home,
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{command}"\n'
        f"timeout = 1\n{line}",
    )


@pytest.mark.parametrize("failure", ["timeout", "exit_1", "garbage", "missing"])
def test_a_failing_hook_set_to_block_blocks_the_tool(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path, failure: str
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _configure(isolated_home, tmp_path, failure, "block")
    run = exec_run(
        vtcode,
        ws,
        [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")],
        "--approval",
        "full-auto",
    )
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert "failed and is set to block on failure" in run.tool_results()[0]
    assert run.of("hook.completed")[0]["outcome"] in ("failed", "timed_out", "not_started")


@pytest.mark.parametrize("failure", ["timeout", "exit_1", "garbage", "missing"])
def test_a_failing_hook_by_default_lets_the_tool_run_with_a_visible_warning(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path, failure: str
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _configure(isolated_home, tmp_path, failure, None)
    run = exec_run(
        vtcode,
        ws,
        [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")],
        "--approval",
        "full-auto",
    )
    assert run.result.code == 0, run.result.stderr
    assert (ws / "ran.txt").exists()
    warnings = [e["message"] for e in run.of("notice") if e["level"] == "warning"]
    assert any("failed, continuing without it" in w for w in warnings), warnings
