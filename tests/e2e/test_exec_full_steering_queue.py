"""A stored session with a full steering queue: `exec --continue` answers every follow-up, then its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.e2e.steering_helpers import only_session, steer
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for


def _last_user_text(body: dict[str, Any]) -> str:
    users = [m for m in body["messages"] if m["role"] == "user"]
    content = users[-1]["content"]
    return content if isinstance(content, str) else content[-1]["text"]


def test_sessions_list_counts_the_intents_steered_into_a_stored_session(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [Reply(text="hi")]) as server:
        vtcode.run("exec", *cli_args("chat"), "hello", cwd=tmp_path, env=cli_env("chat", server))
    for i in range(3):
        assert steer(vtcode, tmp_path, "--mode", "queue", f"n{i}").code == 0
    listed = vtcode.run("sessions", "list", "--json", cwd=tmp_path)
    assert listed.code == 0, listed.stderr
    (info,) = json.loads(listed.stdout)
    assert info["pending_intents"] == 3
    text = vtcode.run("sessions", "list", cwd=tmp_path)
    assert "(+3 pending)" in text.stdout


def test_continue_with_a_full_queue_answers_every_follow_up_then_the_prompt(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    replies = [Reply(text="hi"), *[Reply(text=f"answer {i}") for i in range(16)], Reply(text="answer go")]
    with server_for("chat", replies) as server:
        env = cli_env("chat", server)
        vtcode.run("exec", *cli_args("chat"), "hello", cwd=tmp_path, env=env)
        for i in range(16):
            assert steer(vtcode, tmp_path, "--mode", "queue", f"n{i}").code == 0
        resumed = vtcode.run("exec", "--continue", "--json", *cli_args("chat"), "go", cwd=tmp_path, env=env)
        bodies = [r.json() for r in server.requests]
    assert resumed.code == 0, resumed.stderr
    assert [_last_user_text(b) for b in bodies[1:]] == [*[f"n{i}" for i in range(16)], "go"]
    evts = events(resumed.stdout)
    assert [e["item"]["text"] for e in evts if e["type"] == "item.completed"][-1] == "answer go"
    assert evts[-1]["status"] == "completed"
    envelope = json.loads((only_session(vtcode) / "envelope.json").read_text())
    assert envelope["pending_intents"] == []
