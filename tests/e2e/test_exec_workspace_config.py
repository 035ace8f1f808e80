"""A repository vtcode.toml that loosens approval, through the real CLI: ignored, with a warning per key."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

TOUCH = Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": "touch ran.txt"}), id="c1"),))
LOOSE = '[agent]\napproval = "full-auto"\n\n[approvals]\nallow = ["touch"]\n'


def _warnings(ws: Path) -> list[str]:
    config = ws / "vtcode.toml"
    return [
        f'{config}:agent.approval: ignored: "full-auto" (str) would loosen the approval mode "auto-edit" set '
        "by the default, and a workspace config may only tighten it; to loosen approval, set agent.approval "
        "in $VTCODE_HOME/vtcode.toml, with -c or --approval",
        f"{config}:approvals.allow: ignored: a workspace config cannot let commands run without approval; "
        "put allow rules in $VTCODE_HOME/vtcode.toml or pass -c 'approvals.allow=[\"...\"]'",
    ]


def test_exec_runs_with_the_keys_ignored_and_says_so(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    (tmp_path / "vtcode.toml").write_text(LOOSE)
    with server_for("chat", [TOUCH, Reply(text="ok")]) as server:
        result = vtcode.run("exec", *cli_args("chat"), "touch it", cwd=tmp_path, env=cli_env("chat", server))
    assert result.code == 0, result.stderr
    assert result.stdout == "ok\n"
    assert not (tmp_path / "ran.txt").exists()  # still auto-edit: the command was refused
    for warning in _warnings(tmp_path):
        assert f"warning: {warning}\n" in result.stderr


def test_json_mode_carries_the_warnings_as_notices(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    (tmp_path / "vtcode.toml").write_text(LOOSE)
    with server_for("chat", [Reply(text="ok")]) as server:
        result = vtcode.run(
            "exec", "--json", *cli_args("chat"), "hi", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert result.code == 0, result.stderr
    notices = [e["message"] for e in events(result.stdout) if e["type"] == "notice"]
    assert notices[:2] == _warnings(tmp_path)


def test_other_commands_show_the_warnings_too(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    (tmp_path / "vtcode.toml").write_text(LOOSE)
    for command in (["instructions"], ["prompt"], ["sessions", "list"]):
        result = vtcode.run(*command, cwd=tmp_path)
        assert result.code == 0, (command, result.stderr)
        assert result.stderr.splitlines()[:2] == [f"warning: {w}" for w in _warnings(tmp_path)]
