"""A trusted hook's digest covers the scripts it runs, not the files it writes or works on: a hook that
appends to a log or formats a file stays trusted after it ran, while an edit to its script (run
directly, by an interpreter or through a wrapper) still asks again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, hooks_json, script
from vtcode.testing.script import Reply


def _trusted_workspace(vtcode: VtcodeRunner, tmp_path: Path, command: str) -> Path:
    ws = tmp_path / "ws"
    script(
        ws / ".vtcode" / "hooks" / "guard.sh",
        "cat > /dev/null\necho guarded >> .vtcode/guard.log\nexit 2\n",
    )
    hooks_json(
        ws / ".vtcode" / "hooks.json",
        {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]},
    )
    trusted = vtcode.run("hooks", "trust", cwd=ws)
    assert trusted.code == 0, trusted.stderr
    return ws


def _guarded(vtcode: VtcodeRunner, ws: Path, name: str) -> bool:
    """Whether the trusted guard ran and blocked `touch NAME`."""
    steps = [call("exec_command", {"cmd": f"touch {name}"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    return not (ws / name).exists()


@pytest.mark.parametrize(
    "command",
    [
        "echo edited >> .vtcode/hooks.log && cat > /dev/null && exit 2",
        "tee -a .vtcode/stdin.log > /dev/null && exit 2",
        "cat > .vtcode/last-input.json && exit 2",
    ],
)
def test_a_trusted_hook_that_writes_a_workspace_file_keeps_running(
    vtcode: VtcodeRunner, tmp_path: Path, command: str
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".vtcode").mkdir()
    for log in ("hooks.log", "stdin.log", "last-input.json"):
        (ws / ".vtcode" / log).write_text("")
    hooks_json(
        ws / ".vtcode" / "hooks.json",
        {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]},
    )
    assert vtcode.run("hooks", "trust", cwd=ws).code == 0
    assert _guarded(vtcode, ws, "first")
    assert _guarded(vtcode, ws, "second")
    assert _guarded(vtcode, ws, "third")


@pytest.mark.parametrize(
    "command",
    [
        ".vtcode/hooks/guard.sh >> .vtcode/hooks.log",
        "sh .vtcode/hooks/guard.sh",
        "cd . && timeout 30 .vtcode/hooks/guard.sh 2>/dev/null",
    ],
)
def test_an_edit_to_the_script_a_trusted_hook_runs_asks_again(
    vtcode: VtcodeRunner, tmp_path: Path, command: str
) -> None:
    ws = _trusted_workspace(vtcode, tmp_path, command)
    (ws / ".vtcode" / "hooks.log").touch()
    assert _guarded(vtcode, ws, "first")
    assert _guarded(vtcode, ws, "second")
    guard = ws / ".vtcode" / "hooks" / "guard.sh"
    guard.write_text("#!/bin/sh\nexit 0\n")
    assert not _guarded(vtcode, ws, "third")
