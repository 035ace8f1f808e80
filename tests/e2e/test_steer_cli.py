"""`vtcode steer` from another terminal: into a running `vtcode exec`, into a stored session, its limits."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.e2e.steering_helpers import (
    applied_intents,
    history_messages,
    only_session,
    start_exec,
    steer,
)
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

FULL_AUTO = (*cli_args("chat"), "--approval", "full-auto")


def _sleep(seconds: float, call_id: str) -> Reply:
    arguments = json.dumps({"cmd": f"sleep {seconds}", "yield_time_ms": 30000})
    return Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id=call_id),))


def _user_texts(body: dict[str, object]) -> list[str]:
    messages = body["messages"]
    assert isinstance(messages, list)
    return [m["content"] for m in messages if m["role"] == "user"]


def test_a_queued_follow_up_runs_as_the_next_turn_of_a_running_exec(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    script = [_sleep(4, "c1"), Reply(text="first done"), Reply(text="follow-up done")]
    with server_for("chat", script) as server:
        proc = start_exec(vtcode, tmp_path, cli_env("chat", server), *FULL_AUTO, "start")
        only_session(vtcode)
        sent = steer(vtcode, tmp_path, "--mode", "queue", "--wait", "and", "then", "this")
        out, err = proc.communicate(timeout=60)
        bodies = [r.json() for r in server.requests]
    assert sent.code == 0, sent.stderr
    intent_id = sent.stdout.strip()
    assert proc.returncode == 0, err
    evts = events(out)
    assert [(e["type"], e.get("intent_id")) for e in evts if e["type"].startswith("intent.")] == [
        ("intent.queued", intent_id),
        ("intent.applied", intent_id),
    ]
    completed = [e for e in evts if e["type"] == "turn.completed"]
    assert [e["pending_intents"] for e in completed] == [1, 0]
    assert _user_texts(bodies[-1])[-1] == "and then this"
    assert applied_intents(only_session(vtcode)) == [(intent_id, "and then this")]


def test_a_steer_reaches_the_running_turn_after_its_tool_batch(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [_sleep(4, "c1"), Reply(text="adjusted")]) as server:
        proc = start_exec(vtcode, tmp_path, cli_env("chat", server), *FULL_AUTO, "start")
        only_session(vtcode)
        sent = steer(vtcode, tmp_path, "use the other approach")
        out, err = proc.communicate(timeout=60)
        bodies = [r.json() for r in server.requests]
    assert proc.returncode == 0, err
    assert len(bodies) == 2
    last = bodies[1]["messages"][-1]
    assert (last["role"], last["content"]) == ("user", "use the other approach")
    turns = [e for e in events(out) if e["type"] == "turn.started"]
    assert len(turns) == 1
    assert applied_intents(only_session(vtcode)) == [(sent.stdout.strip(), "use the other approach")]


def test_a_stored_session_applies_its_intents_before_the_new_prompt_on_resume(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for(
        "chat", [Reply(text="hi"), Reply(text="one"), Reply(text="two"), Reply(text="three")]
    ) as server:
        env = cli_env("chat", server)
        first = vtcode.run("exec", "--json", *cli_args("chat"), "hello", cwd=tmp_path, env=env)
        session = events(first.stdout)[0]["thread_id"]
        ids = [
            steer(vtcode, tmp_path, "--session", session[:8], "same text").stdout.strip() for _ in range(2)
        ]
        resumed = vtcode.run(
            "exec", "--json", "--resume", session, *cli_args("chat"), "the new prompt", cwd=tmp_path, env=env
        )
        bodies = [r.json() for r in server.requests]
    assert resumed.code == 0, resumed.stderr
    queued = [e for e in events(resumed.stdout) if e["type"] == "intent.queued"]
    # The two stored intents come first; the new prompt waits behind them, as an intent of its own.
    assert [(e["intent_id"], e["recovered"]) for e in queued[:2]] == [(ids[0], True), (ids[1], True)]
    assert [(e["text"], e["recovered"]) for e in queued[2:]] == [("the new prompt", False)]
    assert [_user_texts(b)[-1] for b in bodies[1:]] == ["same text", "same text", "the new prompt"]
    assert applied_intents(only_session(vtcode))[:2] == [(ids[0], "same text"), (ids[1], "same text")]


def test_the_seventeenth_intent_is_refused_with_exit_3(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="hi")]) as server:
        vtcode.run("exec", *cli_args("chat"), "hello", cwd=tmp_path, env=cli_env("chat", server))
    accepted = [steer(vtcode, tmp_path, "--mode", "queue", f"n{i}") for i in range(16)]
    refused = steer(vtcode, tmp_path, "one too many")
    assert [r.code for r in accepted] == [0] * 16
    assert refused.code == 3
    assert "16 pending intents" in refused.stderr
    assert "Traceback" not in refused.stderr
    envelope = json.loads((only_session(vtcode) / "envelope.json").read_text())
    assert [p["text"] for p in envelope["pending_intents"]] == [f"n{i}" for i in range(16)]


def test_cancel_removes_a_pending_intent(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="hi"), Reply(text="kept")]) as server:
        env = cli_env("chat", server)
        vtcode.run("exec", *cli_args("chat"), "hello", cwd=tmp_path, env=env)
        drop = steer(vtcode, tmp_path, "drop me").stdout.strip()
        keep = steer(vtcode, tmp_path, "keep me").stdout.strip()
        cancelled = steer(vtcode, tmp_path, "--cancel", drop)
        again = steer(vtcode, tmp_path, "--cancel", drop)
        vtcode.run("exec", "--continue", *cli_args("chat"), "go on", cwd=tmp_path, env=env)
    assert (cancelled.code, again.code) == (0, 2)
    assert "no pending intent" in again.stderr
    assert [a[:1] for a in applied_intents(only_session(vtcode))][:1] == [(keep,)]
    assert [text for _, text in applied_intents(only_session(vtcode))] == ["keep me", "go on"]
    assert "drop me" not in json.dumps(history_messages(only_session(vtcode)))


def test_steer_without_any_session_is_a_usage_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    result = steer(vtcode, tmp_path, "anyone there?")
    assert result.code == 2
    assert "no session to steer" in result.stderr


def test_eight_steer_processes_at_once_lose_nothing(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="hi")]) as server:
        vtcode.run("exec", *cli_args("chat"), "hello", cwd=tmp_path, env=cli_env("chat", server))
    procs = [
        subprocess.Popen(
            vtcode.command("steer", "--mode", "queue", f"from {n}"),
            cwd=tmp_path,
            env=vtcode.env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(8)
    ]
    outputs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [err for _, err in outputs]
    ids = {out.strip() for out, _ in outputs}
    envelope = json.loads((only_session(vtcode) / "envelope.json").read_text())
    assert {p["id"] for p in envelope["pending_intents"]} == ids
    assert sorted(p["text"] for p in envelope["pending_intents"]) == sorted(f"from {n}" for n in range(8))
