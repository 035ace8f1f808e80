"""`vtcode sessions list|show` after real runs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _run(vtcode: VtcodeRunner, ws: Path, prompt: str, *extra: str) -> str:
    with server_for("chat", [Reply(text="ok")]) as server:
        result = vtcode.run(
            "exec", "--json", *extra, *cli_args("chat"), prompt, cwd=ws, env=cli_env("chat", server)
        )
    assert result.code == 0, result.stderr
    return str(events(result.stdout)[0]["thread_id"])


def test_list_shows_id_workspace_turns_and_title(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    first = _run(vtcode, tmp_path, "first task\nwith details")
    second = _run(vtcode, tmp_path, "second task")
    _run(vtcode, tmp_path, "follow-up", "--resume", first)
    listed = vtcode.run("sessions", "list", "--json")
    assert listed.code == 0, listed.stderr
    rows = {row["id"]: row for row in json.loads(listed.stdout)}
    assert set(rows) == {first, second}
    assert (rows[first]["title"], rows[first]["turns"], rows[first]["workspace"]) == (
        "first task",
        2,
        str(tmp_path.resolve()),
    )
    assert rows[first]["created_at"] <= rows[first]["updated_at"]
    assert json.loads(listed.stdout)[0]["id"] == first  # most recently updated first
    text = vtcode.run("sessions", "list").stdout
    assert first in text
    assert "first task" in text


def test_show_prints_the_history(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    session = _run(vtcode, tmp_path, "hello there")
    shown = vtcode.run("sessions", "show", session[:8])
    assert shown.code == 0, shown.stderr
    assert f"session   {session}" in shown.stdout
    assert "user: hello there" in shown.stdout
    assert "assistant: ok" in shown.stdout


def test_show_unknown_id_is_a_clear_error(vtcode: VtcodeRunner) -> None:
    shown = vtcode.run("sessions", "show", "nope")
    assert shown.code != 0
    assert "vtcode sessions list" in shown.stderr
    assert "Traceback" not in shown.stderr


def test_continue_without_a_session_is_a_usage_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        result = vtcode.run(
            "exec", "--continue", *cli_args("chat"), "x", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert result.code == 2
    assert "no stored session" in result.stderr


def test_resuming_in_another_workspace_says_so(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    first = tmp_path / "one"
    other = tmp_path / "two"
    first.mkdir()
    other.mkdir()
    session = _run(vtcode, first, "start here")
    with server_for("chat", [Reply(text="ok")]) as server:
        result = vtcode.run(
            "exec",
            "--json",
            "--resume",
            session,
            *cli_args("chat"),
            "go on",
            cwd=other,
            env=cli_env("chat", server),
        )
    assert result.code == 0, result.stderr
    notices = [e["message"] for e in events(result.stdout) if e["type"] == "notice"]
    assert any(f"ran in {first.resolve()}" in n for n in notices), notices


def test_resumed_session_keeps_nested_instructions_of_files_it_touched(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    (tmp_path / "src" / "deep").mkdir(parents=True)
    (tmp_path / "src" / "deep" / "x.py").write_text("x = 1\n")
    (tmp_path / "src" / "deep" / "AGENTS.md").write_text("Deep rule: keep x small.\n")
    read = Reply(tool_calls=(ScriptToolCall("read_file", '{"path": "src/deep/x.py"}', id="r"),))
    with server_for("chat", [read, Reply(text="read it")]) as server:
        first = vtcode.run(
            "exec", "--json", *cli_args("chat"), "look", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert first.code == 0, first.stderr
    session = str(events(first.stdout)[0]["thread_id"])
    with server_for("chat", [Reply(text="ok")]) as server:
        resumed = vtcode.run(
            "exec", "--resume", session, *cli_args("chat"), "again", cwd=tmp_path, env=cli_env("chat", server)
        )
        system = [m["content"] for m in server.requests[0].json()["messages"] if m["role"] == "system"]
    assert resumed.code == 0, resumed.stderr
    assert "Deep rule: keep x small." in "\n".join(system)
