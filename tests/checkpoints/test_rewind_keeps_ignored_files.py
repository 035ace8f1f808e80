"""A call that changes the ignore rules makes ignored files visible: a rewind must not delete them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.checkpoints.rewind_helpers import command_call, patch_call, rewind, turn, user_repo
from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall

BACKGROUND = Reply(
    tool_calls=(
        ScriptToolCall("exec_command", json.dumps({"cmd": "sleep 5", "yield_time_ms": 250}), id="b1"),
    )
)
UNIGNORE_BY_PATCH = (
    "*** Begin Patch\n*** Update File: .gitignore\n@@\n-.env\n-build/\n+node_modules/\n*** End Patch\n"
)


@pytest.mark.parametrize(
    "calls",
    [
        [command_call("printf 'node_modules/\\n' > .gitignore", "c1")],
        [patch_call(UNIGNORE_BY_PATCH, "p1"), command_call("ls", "c1")],
        [BACKGROUND, command_call("printf 'node_modules/\\n' > .gitignore", "c1")],
    ],
    ids=["command", "patch", "while-a-job-runs"],
)
def test_ignored_files_a_turn_unignored_survive_its_rewind(
    vtcode: VtcodeRunner, tmp_path: Path, calls: list[Reply]
) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n", ".gitignore": ".env\nbuild/\n"})
    (ws / ".env").write_text("SECRET=1\n")
    (ws / "build").mkdir()
    (ws / "build" / "out.bin").write_bytes(b"\x00built")
    turn(vtcode, ws, "look around", [command_call("true", "c0")], resume=False)
    turn(vtcode, ws, "simplify the ignore file", calls)
    assert "node_modules/" in (ws / ".gitignore").read_text()
    done = rewind(vtcode, ws, "--to", "2", "--code", "--yes")
    assert done.code == 0, done.stderr
    assert "0 to delete" in done.stdout, done.stdout
    assert (ws / ".gitignore").read_text() == ".env\nbuild/\n"
    assert (ws / ".env").read_text() == "SECRET=1\n", "the user's ignored file is never deleted"
    assert (ws / "build" / "out.bin").read_bytes() == b"\x00built"
