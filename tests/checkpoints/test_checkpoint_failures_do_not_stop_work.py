"""A checkpoint store that cannot be read or written costs the rewind of that turn, never the turn."""

from __future__ import annotations

import json
from pathlib import Path

from tests.checkpoints.rewind_helpers import command_call, patch_call, turn, user_repo
from tests.conftest import VtcodeRunner

PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"


def test_a_damaged_checkpoint_manifest_warns_and_the_turn_goes_on(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n"})
    done, _ = turn(vtcode, ws, "first", [command_call("echo one > one.txt", "c0")], resume=False)
    manifests = list(vtcode.home.rglob("checkpoints/*/manifest.jsonl"))
    assert len(manifests) == 1
    lines = manifests[0].read_bytes().splitlines(keepends=True)
    manifests[0].write_bytes(lines[0] + b'{"broken": \n' + b"".join(lines[1:]))
    done, bodies = turn(
        vtcode, ws, "edit it", [patch_call(PATCH, "p1"), command_call("echo two > two.txt", "c1")]
    )
    assert (ws / "a.py").read_text() == "x = 2\n"
    assert (ws / "two.txt").exists()
    results = [m["content"] for m in bodies[-1]["messages"] if m["role"] == "tool"]
    assert results[-2:] == [
        "Success. Updated: M a.py",
        json.dumps({"exit_code": 0, "output": ""}, separators=(",", ":")),
    ]
    assert "checkpoints not recorded" in done.stderr, done.stderr
    assert done.stderr.count("checkpoints not recorded") == 1, "warned once"
