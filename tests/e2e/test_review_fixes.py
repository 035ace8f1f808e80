"""Regressions found in review: dangling tool calls, leaked keys, odd input, inert settings."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for


def _call(name: str, args: dict[str, object], call_id: str = "c1") -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(args), id=call_id),))


@pytest.mark.parametrize("wire", WIRES)
def test_kill_9_during_a_command_then_resume_sends_a_result_for_the_call(
    vtcode: VtcodeRunner, tmp_path: Path, wire: Wire
) -> None:
    marker = tmp_path / "started"
    with server_for(wire, [_call("exec_command", {"cmd": f"touch {marker}; sleep 60"})]) as server:
        proc = subprocess.Popen(
            vtcode.command("exec", "--json", "--approval", "full-auto", *cli_args(wire), "work"),
            cwd=tmp_path,
            env=vtcode.env(cli_env(wire, server)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 20
        while not marker.exists():
            assert time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate(timeout=20)
    session = str(events(out)[0]["thread_id"])
    with server_for(wire, [Reply(text="recovered")]) as server:
        result = vtcode.run(
            "exec",
            "--json",
            "--resume",
            session,
            *cli_args(wire),
            "go on",
            cwd=tmp_path,
            env=cli_env(wire, server),
        )
        body = json.dumps(server.requests[0].json())
    assert result.code == 0, result.stderr
    notices = [e["message"] for e in events(result.stdout) if e["type"] == "notice"]
    assert any("recorded as not finished" in n for n in notices)
    assert "vtcode stopped (crash or kill) before this call returned" in body


def test_commands_do_not_inherit_api_keys(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [_call("exec_command", {"cmd": "env"}), Reply(text="ok")]) as server:
        env = {**cli_env("chat", server), "ANTHROPIC_API_KEY": "sk-ant-SECRET", "MY_SETTING": "visible"}
        result = vtcode.run(
            "exec", "--approval", "full-auto", *cli_args("chat"), "env", cwd=tmp_path, env=env
        )
        sent = json.dumps(server.requests[-1].json())
    assert result.code == 0, result.stderr
    assert "MY_SETTING=visible" in sent
    assert "SECRET" not in sent
    assert "test-key" not in sent  # OPENAI_API_KEY's value
    for stored in (tmp_path / ".vtcode").rglob("*"):
        if stored.is_file():
            assert b"SECRET" not in stored.read_bytes()


def test_invalid_utf8_on_stdin_is_decoded_leniently(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="fine")]) as server:
        proc = subprocess.run(
            vtcode.command("exec", *cli_args("chat"), "-"),
            cwd=tmp_path,
            env=vtcode.env(cli_env("chat", server)),
            input=b"\xff\xfe bad bytes",
            capture_output=True,
            check=False,
        )
        body = server.requests[0].json()
    assert proc.returncode == 0, proc.stderr
    assert body["messages"][-1]["content"] == "\ufffd\ufffd bad bytes"


def test_reasoning_effort_and_model_output_limit_reach_the_request(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("anthropic", [Reply(text="ok")]) as server:
        result = vtcode.run(
            "exec",
            "-c",
            "agent.reasoning_effort=high",
            "-c",
            'models."claude-sonnet-4-5".max_output_tokens=30000',
            *cli_args("anthropic"),
            "think",
            cwd=tmp_path,
            env=cli_env("anthropic", server),
        )
        body = server.requests[0].json()
    assert result.code == 0, result.stderr
    assert body["max_tokens"] == 30000
    assert body["thinking"]["type"] == "enabled"


def test_cut_off_reply_is_announced(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="partial answ", stop_reason="max_tokens")]) as server:
        result = vtcode.run(
            "exec", "--json", *cli_args("chat"), "x", cwd=tmp_path, env=cli_env("chat", server)
        )
    notices = [e["message"] for e in events(result.stdout) if e["type"] == "notice"]
    assert any("output token limit" in n for n in notices), result.stdout


@pytest.mark.parametrize("url", ["notaurl", "ftp://host/v1", "http://"])
def test_invalid_base_url_is_a_usage_error(vtcode: VtcodeRunner, tmp_path: Path, url: str) -> None:
    result = vtcode.run("exec", "--provider", "openai-compatible", "--base-url", url, "x", cwd=tmp_path)
    assert result.code == 2
    assert "invalid base URL" in result.stderr


def test_unknown_session_id_is_a_usage_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        resumed = vtcode.run(
            "exec", "--resume", "bogus", *cli_args("chat"), "x", cwd=tmp_path, env=cli_env("chat", server)
        )
    shown = vtcode.run("sessions", "show", "bogus")
    for result in (resumed, shown):
        assert result.code == 2
        assert "no stored session has the id 'bogus'" in result.stderr


def test_config_option_after_sessions_list(vtcode: VtcodeRunner) -> None:
    result = vtcode.run("sessions", "list", "-c", "agent.provder=x")
    assert result.code == 2
    assert "did you mean agent.provider" in result.stderr
