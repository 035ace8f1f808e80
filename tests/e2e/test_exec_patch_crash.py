"""kill -9 in the middle of a 1,500-file apply_patch, through the real CLI: resuming leaves none applied.

The tests watch the patched folder (the workspace, or a folder added with `--add-dir`) and kill the
`vtcode exec` process (SIGKILL, no clean-up possible) as soon as the first file has its new content,
while the rest are still being written. They then check that the kill really landed mid-way, resume the
session, and require every file back in its original state and no temporary file left anywhere.
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


def _patch(prefix: str = "") -> str:
    hunk = "@@\n unchanged line 0\n-unchanged line 1\n+CHANGED line 1\n unchanged line 2\n"
    sections = [f"*** Update File: {prefix}{_name(i)}\n{hunk}" for i in range(FILES)]
    return "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"


def _changed(workspace: Path) -> int:
    return sum("CHANGED" in (workspace / _name(i)).read_text() for i in range(FILES))


def _fill(folder: Path) -> None:
    for i in range(FILES):
        path = folder / _name(i)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BODY)


def _kill_mid_patch(vtcode: VtcodeRunner, workspace: Path, patched: Path, *extra: str) -> None:
    """Run `vtcode exec` whose model patches every file of `patched`; SIGKILL it mid-apply."""
    first = patched / _name(0)
    prefix = "" if patched == workspace else f"{patched}/"
    call = ScriptToolCall("apply_patch", json.dumps({"patch": _patch(prefix)}), id="p1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="patched")]) as server:
        proc = subprocess.Popen(
            vtcode.command("exec", *cli_args("chat"), *extra, "change every file"),
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
    assert 0 < _changed(patched) < FILES


def test_a_patch_killed_mid_apply_is_rolled_back_when_the_session_resumes(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    workspace = tmp_path / "ws"
    _fill(workspace)
    _kill_mid_patch(vtcode, workspace, workspace)
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


def test_a_patch_of_an_added_folder_killed_mid_apply_is_rolled_back_when_the_session_resumes(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    workspace, added = tmp_path / "ws", tmp_path / "added"
    workspace.mkdir()
    _fill(added)
    _kill_mid_patch(vtcode, workspace, added, "--approval", "full-auto", "--add-dir", str(added))
    # Resumed in the same workspace, without `--add-dir`: the journal names the session's workspace.
    with server_for("chat", [Reply(text="resumed")]) as server:
        resumed = vtcode.run(
            "exec", *cli_args("chat"), "--continue", "go on", cwd=workspace, env=cli_env("chat", server),
            timeout=120,
        )  # fmt: skip
    assert resumed.code == 0, resumed.stderr
    assert f"in the added folder {added.resolve()} was interrupted by a crash; it was rolled back" in (
        resumed.stderr
    )
    assert all((added / _name(i)).read_text() == BODY for i in range(FILES))
    leftovers = [p for p in added.rglob("*") if p.is_file() and p.name.endswith(".tmp")]
    assert leftovers == []
    assert list((vtcode.home / ".vtcode" / "patch-journal").iterdir()) == []
