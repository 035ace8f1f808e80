"""`vtcode sessions delete ID` removes a stored session; `exec --ephemeral` stores none at all."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _sessions(vtcode: VtcodeRunner) -> Path:
    return vtcode.home / ".vtcode" / "sessions"


def test_sessions_delete_removes_a_stored_session(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="one"), Reply(text="two")]) as server:
        env = cli_env("chat", server)
        first = vtcode.run("exec", "--json", *cli_args("chat"), "keep me", cwd=tmp_path, env=env)
        second = vtcode.run("exec", "--json", *cli_args("chat"), "delete me", cwd=tmp_path, env=env)
    doomed = events(second.stdout)[0]["thread_id"]
    kept = events(first.stdout)[0]["thread_id"]
    deleted = vtcode.run("sessions", "delete", doomed[:8], cwd=tmp_path)
    assert deleted.code == 0, deleted.stderr
    assert deleted.stdout == f"deleted session {doomed}\n"
    assert sorted(p.name for p in _sessions(vtcode).iterdir()) == [kept]
    listed = json.loads(vtcode.run("sessions", "list", "--json", cwd=tmp_path).stdout)
    assert [s["id"] for s in listed] == [kept]
    again = vtcode.run("sessions", "delete", doomed, cwd=tmp_path)
    assert again.code == 2
    assert "no stored session has the id" in again.stderr


def test_ephemeral_runs_store_nothing(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    call = Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": "echo hi"}), id="c1"),))
    with server_for("chat", [call, Reply(text="done")]) as server:
        result = vtcode.run(
            "exec", "--ephemeral", "--approval", "full-auto", *cli_args("chat"), "go",
            cwd=tmp_path, env=cli_env("chat", server),
        )  # fmt: skip
    assert result.code == 0, result.stderr
    assert result.stdout == "done\n"
    assert "session:" not in result.stderr
    assert not _sessions(vtcode).exists() or list(_sessions(vtcode).iterdir()) == []
    refused = vtcode.run("exec", "--ephemeral", "--continue", *cli_args("chat"), "go", cwd=tmp_path)
    assert refused.code == 2
    assert "--ephemeral cannot continue a stored session" in refused.stderr
