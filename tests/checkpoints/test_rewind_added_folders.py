"""Edits in a folder added with `--add-dir` are checkpointed and rewound like the workspace's."""

from __future__ import annotations

import json
from pathlib import Path

from tests.checkpoints.rewind_helpers import command_call, rewind, turn, user_repo
from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall


def _write(path: Path, content: str, call_id: str) -> Reply:
    arguments = json.dumps({"path": str(path), "content": content})
    return Reply(tool_calls=(ScriptToolCall("write_file", arguments, id=call_id),))


def test_a_rewind_restores_the_edits_made_in_an_added_folder(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n"})
    extra = tmp_path / "shared"
    extra.mkdir()
    (extra / "config.toml").write_text("mine = true\n")
    replies = [_write(extra / "config.toml", "agent = true\n", "w1"), _write(extra / "new.txt", "n\n", "w2")]
    turn(vtcode, ws, "edit the shared folder", replies, resume=False, args=["--add-dir", str(extra)])
    assert (extra / "config.toml").read_text() == "agent = true\n"
    listed = json.loads(rewind(vtcode, ws, "--list", "--json").stdout)
    assert sorted(listed["turns"][0]["files"]) == [
        str(extra.resolve() / n) for n in ("config.toml", "new.txt")
    ]
    back = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert back.code == 0, back.stderr
    assert (extra / "config.toml").read_text() == "mine = true\n"
    assert not (extra / "new.txt").exists()
    assert rewind(vtcode, ws, "--redo", "--yes").code == 0
    assert (extra / "config.toml").read_text() == "agent = true\n"


def test_commands_in_an_added_folder_are_said_not_to_be_covered(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n"})
    extra = tmp_path / "shared"
    extra.mkdir()
    done, _ = turn(
        vtcode, ws, "run", [command_call("true", "c1")], resume=False, args=["--add-dir", str(extra)]
    )
    assert f"what commands change in {extra.resolve()}" in " ".join(done.stderr.split()), done.stderr
