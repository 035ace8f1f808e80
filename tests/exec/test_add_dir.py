"""`--add-dir DIR` lets the agent's commands write in DIR as well as the workspace; others stay shut."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.exec.sandbox_helpers import needs_landlock
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _touch_both(vtcode: VtcodeRunner, ws: Path, added: Path, other: Path, *extra: str) -> int:
    cmd = f"touch {added}/made; touch {other}/made; true"
    steps = [
        Reply(tool_calls=(ScriptToolCall(id="c1", name="exec_command", arguments=json.dumps({"cmd": cmd})),)),
        Reply(text="done"),
    ]
    with server_for("chat", steps) as server:
        result = vtcode.run(
            "exec",
            *cli_args("chat"),
            "--approval",
            "full-auto",
            *extra,
            "go",
            cwd=ws,
            env=cli_env("chat", server),
        )
    assert "Traceback" not in result.stderr
    return result.code


@needs_landlock
def test_a_command_may_write_in_an_added_dir_and_nowhere_else_outside(
    vtcode: VtcodeRunner, tmp_path: Path, outside: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    added, other = outside / "added", outside / "other"
    added.mkdir()
    other.mkdir()
    assert _touch_both(vtcode, ws, added, other, "--add-dir", str(added)) == 0
    assert (added / "made").exists()
    assert not (other / "made").exists()


@needs_landlock
def test_without_add_dir_the_folder_stays_shut(vtcode: VtcodeRunner, tmp_path: Path, outside: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    added, other = outside / "added", outside / "other"
    added.mkdir()
    other.mkdir()
    assert _touch_both(vtcode, ws, added, other) == 0
    assert not (added / "made").exists()


def test_an_add_dir_that_does_not_exist_is_a_config_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    result = vtcode.run("exec", *cli_args("chat"), "--add-dir", str(tmp_path / "nope"), "go", cwd=tmp_path)
    assert result.code == 2
    assert "--add-dir" in result.stderr
    assert "Traceback" not in result.stderr
