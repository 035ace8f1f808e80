"""Bad input over ACP gets JSON-RPC errors; the process lives on and stdout carries only protocol."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.acp.harness import raw_acp
from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


def _request(request_id: int, method: str, params: dict[str, Any]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})


def test_garbage_unknown_methods_and_unknown_sessions_get_errors_and_the_process_lives(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    lines = [
        "this is not json",
        "[1, 2, 3]",
        _request(1, "no/such_method", {}),
        _request(2, "initialize", {"protocolVersion": 1}),
        _request(3, "session/prompt", {"sessionId": "nope", "prompt": [{"type": "text", "text": "hi"}]}),
        _request(4, "session/new", {"cwd": str(tmp_path), "mcpServers": []}),
        _request(5, "session/prompt", {"sessionId": 7}),
        _request(6, "initialize", {"protocolVersion": 1}),
    ]
    with (
        server_for("chat", [Reply(text="ok")]) as server,
        raw_acp(vtcode, tmp_path, server) as proc,
    ):
        assert proc.stdin is not None
        assert proc.stdout is not None
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
        # Every line gets an answer (session/new takes longer than the rest, so it may come last); the
        # new session's notifications (its `/` menu) are not answers.
        replies: list[dict[str, Any]] = []
        while len(replies) < len(lines):
            message = json.loads(proc.stdout.readline())
            if message.get("method") != "session/update":
                replies.append(message)
        proc.stdin.close()
        code = proc.wait(timeout=60)
        assert proc.stderr is not None
        stderr = proc.stderr.read()
        rest = proc.stdout.read()
    assert code == 0, stderr
    assert "Traceback" not in stderr
    # Nothing more is answered: what follows the answers can only be the session's notifications.
    assert all(json.loads(line)["method"] == "session/update" for line in rest.splitlines()), rest
    assert all(r["jsonrpc"] == "2.0" for r in replies)
    by_id = {r["id"]: r for r in replies if r.get("id") is not None}
    anonymous = [r for r in replies if r.get("id") is None]
    assert [r["error"]["code"] for r in anonymous] == [-32700, -32600]
    assert by_id[1]["error"]["code"] == -32601
    assert by_id[2]["result"]["protocolVersion"] == 1
    assert by_id[3]["error"]["code"] == -32602
    assert "unknown session" in by_id[3]["error"]["message"]
    assert by_id[4]["result"]["sessionId"]
    assert by_id[5]["error"]["code"] == -32602
    assert by_id[6]["result"]["protocolVersion"] == 1
