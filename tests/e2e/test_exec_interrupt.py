"""Interrupts and crashes of a real `vtcode exec` process: exit codes, process groups, resumable history."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.server import WireServer
from vtcode.testing.wire import cli_args, cli_env, server_for


def _spawn(vtcode: VtcodeRunner, ws: Path, server: WireServer, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        vtcode.command("exec", "--json", *args, *cli_args("chat"), "work"),
        cwd=ws,
        env=vtcode.env(cli_env("chat", server)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(predicate: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def _session_id(stdout: str) -> str:
    started = next(e for e in events(stdout) if e["type"] == "thread.started")
    return str(started["thread_id"])


def _history(vtcode: VtcodeRunner, session: str) -> list[dict[str, Any]]:
    shown = vtcode.run("sessions", "show", session, "--json")
    assert shown.code == 0, shown.stderr
    messages: list[dict[str, Any]] = json.loads(shown.stdout)["messages"]
    # The environment context item opens every session; these tests are about the conversation.
    return [m for m in messages if m.get("meta", {}).get("kind") != "context"]


def _without_context(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Request messages without the environment context items (a resume may add one)."""
    return [m for m in messages if not str(m.get("content", "")).startswith("<environment_context>")]


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_sigint_while_streaming_exits_130_and_resumes(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    slow = Reply(text="x" * 400, chunk_size=4, delay_between=0.05)
    with server_for("chat", [slow]) as server:
        proc = _spawn(vtcode, tmp_path, server)
        _wait_for(lambda: len(server.requests) == 1)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert events(out)[-1]["status"] == "interrupted"
    assert events(out)[-3] == {
        "type": "turn.failed",
        "schema_version": 1,
        "kind": "interrupted",
        "message": "interrupted by the user",
        "hint": "",
        "exit_code": 130,
        "turn_id": "turn_1",
        # Interrupted while streaming: no usage was reported yet, so nothing was spent that is known.
        "usage": {},
        "cost_usd": 0.0,
    }
    session = _session_id(out)
    # The history says the prompt was interrupted, so the resume below does not answer it again.
    kept = _history(vtcode, session)
    assert [(m["role"], m.get("meta", {}).get("kind")) for m in kept] == [
        ("user", None),
        ("user", "interruption"),
    ]
    with server_for("chat", [Reply(text="resumed fine")]) as server:
        result = vtcode.run(
            "exec", "--resume", session, *cli_args("chat"), "go on", cwd=tmp_path, env=cli_env("chat", server)
        )
        sent = _without_context(server.requests[0].json()["messages"])
    assert result.code == 0, result.stderr
    assert result.stdout == "resumed fine\n"
    assert [(m["role"], m["content"]) for m in sent[1:]] == [
        ("user", "work"),
        ("user", "[The user interrupted this request before it was answered.]"),
        ("user", "go on"),
    ]


def test_sigint_during_a_command_kills_its_group(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    cmd = "echo $$ > pgid.txt; sleep 60"
    call = Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id="c1"),))
    with server_for("chat", [call]) as server:
        proc = _spawn(vtcode, tmp_path, server, "--approval", "full-auto")
        pid_file = tmp_path / "pgid.txt"
        _wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
        pgid = int(pid_file.read_text())
        assert _group_alive(pgid)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    _wait_for(lambda: not _group_alive(pgid), timeout=5)
    history = _history(vtcode, _session_id(out))
    assert [m["role"] for m in history] == ["user", "assistant", "tool"]
    assert history[2]["call_id"] == "c1"
    assert history[2]["is_error"] is True
    with server_for("chat", [Reply(text="ok")]) as server:
        result = vtcode.run(
            "exec", "--continue", *cli_args("chat"), "again", cwd=tmp_path, env=cli_env("chat", server)
        )
        sent = _without_context(server.requests[0].json()["messages"])
    assert result.code == 0, result.stderr
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "user"]


def test_sigterm_cleans_up_and_exits_143(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    cmd = "echo $$ > pgid.txt; sleep 60"
    call = Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id="c1"),))
    with server_for("chat", [call]) as server:
        proc = _spawn(vtcode, tmp_path, server, "--approval", "full-auto")
        pid_file = tmp_path / "pgid.txt"
        _wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
        pgid = int(pid_file.read_text())
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    # 128 + SIGTERM, as CI runners expect of a cancelled job (SIGINT stays 130).
    assert proc.returncode == 143
    _wait_for(lambda: not _group_alive(pgid), timeout=5)


def test_kill_9_mid_turn_keeps_checkpoints_and_resumes(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    read = Reply(tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "a.txt"}), id="r1"),))
    hang = Reply(text="never", delay_before=60)
    with server_for("chat", [read, hang]) as server:
        proc = _spawn(vtcode, tmp_path, server)
        _wait_for(lambda: len(server.requests) == 2)
        proc.kill()
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == -signal.SIGKILL
    session = _session_id(out)
    history = _history(vtcode, session)
    assert [m["role"] for m in history] == ["user", "assistant", "tool"]
    assert "alpha" in history[2]["content"]
    with server_for("chat", [Reply(text="continued")]) as server:
        result = vtcode.run(
            "exec",
            "--resume",
            session,
            *cli_args("chat"),
            "and now?",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
        sent = _without_context(server.requests[0].json()["messages"])
    assert result.code == 0, result.stderr
    assert result.stdout == "continued\n"
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "user"]


def test_a_prompt_a_killed_run_left_unanswered_is_answered_first_on_resume(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    stalled = Reply(text="never sent", delay_before=60)
    with server_for("chat", [stalled]) as server:
        proc = _spawn(vtcode, tmp_path, server)
        _wait_for(lambda: len(server.requests) == 1)
        proc.kill()
        out, _ = proc.communicate(timeout=20)
    session = _session_id(out)
    with server_for("chat", [Reply(text="the work, done"), Reply(text="next, done")]) as server:
        result = vtcode.run(
            "exec", "--resume", session, *cli_args("chat"), "next", cwd=tmp_path, env=cli_env("chat", server)
        )
        sent = [_without_context(r.json()["messages"]) for r in server.requests]
    assert result.code == 0, result.stderr
    assert "answering it first" in result.stderr
    # Each turn's answer, in order, as for intents a resume applies.
    assert result.stdout == "the work, done\nnext, done\n"
    # The killed run's prompt is answered from the history as it stands (sent once), then the new one.
    assert [(m["role"], m["content"]) for m in sent[0][1:]] == [("user", "work")]
    assert [(m["role"], m["content"]) for m in sent[1][1:]] == [
        ("user", "work"),
        ("assistant", "the work, done"),
        ("user", "next"),
    ]
