"""kill -9 in the middle of a 1,500-file apply_patch, through the real CLI: resuming leaves none applied.

The test watches the workspace and kills the `vtcode exec` process (SIGKILL, no clean-up possible) as
soon as the first file has its new content, while the rest are still being written. It then checks
that the kill really landed mid-way, resumes the session, and requires every file back in its
original state and no temporary file left anywhere.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

FILES = 1500
BODY = "".join(f"unchanged line {n}\n" for n in range(200))


def _name(index: int) -> str:
    return f"pkg/m{index // 100:02d}/f{index:04d}.txt"


def _patch() -> str:
    hunk = "@@\n unchanged line 0\n-unchanged line 1\n+CHANGED line 1\n unchanged line 2\n"
    sections = [f"*** Update File: {_name(i)}\n{hunk}" for i in range(FILES)]
    return "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"


def _changed(workspace: Path) -> int:
    return sum("CHANGED" in (workspace / _name(i)).read_text() for i in range(FILES))


def test_a_patch_killed_mid_apply_is_rolled_back_when_the_session_resumes(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    workspace = tmp_path / "ws"
    for i in range(FILES):
        path = workspace / _name(i)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BODY)
    first = workspace / _name(0)
    call = ScriptToolCall("apply_patch", json.dumps({"patch": _patch()}), id="p1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="patched")]) as server:
        proc = subprocess.Popen(
            vtcode.command("exec", *cli_args("chat"), "change every file"),
            cwd=workspace,
            env=vtcode.env(cli_env("chat", server)),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            ends = time.monotonic() + 120
            while "CHANGED" not in first.read_text() and proc.poll() is None and time.monotonic() < ends:
                time.sleep(0.0005)
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    # The kill landed while the patch was being applied: some files new, some not.
    assert 0 < _changed(workspace) < FILES
    with server_for("chat", [Reply(text="resumed")]) as server:
        resumed = vtcode.run(
            "exec",
            *cli_args("chat"),
            "--continue",
            "go on",
            cwd=workspace,
            env=cli_env("chat", server),
            timeout=120,
        )
    assert resumed.code == 0, resumed.stderr
    assert "interrupted by a crash; it was rolled back" in resumed.stderr
    assert _changed(workspace) == 0
    assert all((workspace / _name(i)).read_text() == BODY for i in range(FILES))
    leftovers = [p for p in workspace.rglob("*") if p.is_file() and p.name.endswith(".tmp")]
    assert leftovers == []
    assert list((vtcode.home / ".vtcode" / "patch-journal").iterdir()) == []
