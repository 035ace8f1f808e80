"""Requests read before the editor closes stdin are all answered before `vtcode acp` exits."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any, BinaryIO

import pytest

from tests.acp.harness import raw_acp
from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall, Step
from vtcode.testing.wire import cli_args, cli_env, server_for


def _request(request_id: int, method: str, params: dict[str, Any]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})


def _run(vtcode: VtcodeRunner, tmp_path: Path, lines: list[str], replies: list[Reply]) -> list[Any]:
    with server_for("chat", replies) as server:
        done = subprocess.run(
            vtcode.command("acp", *cli_args("chat")),
            check=False,
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=vtcode.env(cli_env("chat", server)),
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def test_requests_written_before_stdin_closes_all_get_responses(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    lines = [
        _request(1, "initialize", {"protocolVersion": 1}),
        _request(2, "session/new", {"cwd": str(tmp_path), "mcpServers": []}),
        _request(3, "initialize", {"protocolVersion": 1}),
    ]
    messages = _run(vtcode, tmp_path, lines, [Reply(text="ok")])
    answered = {m["id"] for m in messages if "id" in m and "method" not in m}
    assert answered == {1, 2, 3}
    by_id = {m["id"]: m for m in messages if "id" in m and "method" not in m}
    assert by_id[2]["result"]["sessionId"]


def _prompt_then_close(vtcode: VtcodeRunner, tmp_path: Path, script: list[Step], text: str) -> list[Any]:
    """Open a session, send one prompt and close stdin at once; every message vtcode wrote after that."""
    with (
        server_for("chat", script) as server,
        raw_acp(vtcode, tmp_path, server) as proc,
    ):
        assert proc.stdin is not None
        assert proc.stdout is not None
        assert proc.stderr is not None
        proc.stdin.write(_request(1, "initialize", {"protocolVersion": 1}) + "\n")
        proc.stdin.write(_request(2, "session/new", {"cwd": str(tmp_path), "mcpServers": []}) + "\n")
        proc.stdin.flush()
        replies = [json.loads(proc.stdout.readline()) for _ in range(2)]
        session_id = {r["id"]: r for r in replies}[2]["result"]["sessionId"]
        prompt = [{"type": "text", "text": text}]
        proc.stdin.write(_request(3, "session/prompt", {"sessionId": session_id, "prompt": prompt}) + "\n")
        proc.stdin.close()
        code = proc.wait(timeout=120)
        rest = [json.loads(line) for line in proc.stdout.read().splitlines() if line.strip()]
        stderr = proc.stderr.read()
    assert code == 0, stderr
    assert "Traceback" not in stderr
    return rest


def test_a_prompt_sent_just_before_stdin_closes_runs_to_its_answer(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    rest = _prompt_then_close(vtcode, tmp_path, [Reply(text="the answer")], "question")
    answer = [m for m in rest if m.get("id") == 3]
    assert len(answer) == 1, rest
    assert answer[0]["result"]["stopReason"] == "end_turn"
    text = "".join(
        m["params"]["update"]["content"]["text"]
        for m in rest
        if m.get("method") == "session/update"
        and m["params"]["update"].get("sessionUpdate") == "agent_message_chunk"
    )
    assert text == "the answer"


def test_a_permission_asked_after_stdin_closed_counts_as_not_granted_and_the_prompt_ends(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    touch = ScriptToolCall(id="c1", name="exec_command", arguments=json.dumps({"cmd": "touch made"}))
    rest = _prompt_then_close(
        vtcode, tmp_path, [Reply(tool_calls=(touch,)), Reply(text="gave up")], "make a file"
    )
    assert any(m.get("method") == "session/request_permission" for m in rest)
    answer = [m for m in rest if m.get("id") == 3 and "method" not in m]
    assert len(answer) == 1, rest
    assert answer[0]["result"]["stopReason"] == "end_turn"
    assert not (tmp_path / "made").exists()


def _run_from(vtcode: VtcodeRunner, tmp_path: Path, source: BinaryIO) -> subprocess.CompletedProcess[str]:
    """`vtcode acp` with stdin read from `source` (not a pipe)."""
    return subprocess.run(
        vtcode.command("acp", *cli_args("chat")),
        check=False,
        stdin=source,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=vtcode.env(),
        timeout=120,
    )


def test_stdin_from_dev_null_ends_the_server_at_once(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    # /dev/null cannot be watched by epoll: the server must still see its end instead of waiting forever.
    with open(os.devnull, "rb") as devnull:
        done = _run_from(vtcode, tmp_path, devnull)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert "Operation not permitted" not in done.stderr
    assert "Traceback" not in done.stderr


def test_requests_read_from_a_file_all_get_responses(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    lines = [
        _request(1, "initialize", {"protocolVersion": 1}),
        _request(2, "initialize", {"protocolVersion": 1}),
    ]
    requests.write_text("\n".join(lines) + "\n")
    with requests.open("rb") as source:
        done = _run_from(vtcode, tmp_path, source)
    assert done.returncode == 0, done.stderr
    answered = {json.loads(line)["id"] for line in done.stdout.splitlines() if line.strip()}
    assert answered == {1, 2}


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_ends_the_server_with_128_plus_its_number(
    vtcode: VtcodeRunner, tmp_path: Path, signum: int, status: int
) -> None:
    # Editors and supervisors read 143 as "terminated on request", as for `vtcode exec`; 0 is for the
    # editor closing stdin.
    with (
        server_for("chat", [Reply(text="unused")]) as server,
        raw_acp(vtcode, tmp_path, server) as proc,
    ):
        assert proc.stdin is not None
        assert proc.stdout is not None
        proc.stdin.write(_request(1, "initialize", {"protocolVersion": 1}) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == status, stderr
    assert "Traceback" not in stderr
