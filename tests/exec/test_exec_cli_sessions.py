"""Command sessions through the real CLI: `vtcode exec --json` as a subprocess against a loopback model."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.exec.helpers import alive, group_members
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _wait_for(predicate: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def _pid(path: Path) -> int:
    _wait_for(lambda: path.exists() and path.read_text().strip() != "")
    return int(path.read_text())


def test_sigterm_with_three_sessions_leaves_no_process_of_their_groups(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    commands = [
        "echo $$ > g0.pid; sleep 300 & sleep 300",
        "echo $$ > g1.pid; sleep 300 | sleep 300",
        # One escapes its group with setsid: the subreaper and the session marker still catch it.
        "echo $$ > g2.pid; (setsid sleep 300 & echo $! > escapee.pid); sleep 300",
    ]
    start = Reply(
        tool_calls=tuple(
            ScriptToolCall("exec_command", json.dumps({"cmd": cmd, "yield_time_ms": 250}), id=f"c{i}")
            for i, cmd in enumerate(commands)
        )
    )
    hang = Reply(text="never", delay_before=60)
    with server_for("chat", [start, hang]) as server:
        proc = subprocess.Popen(
            vtcode.command("exec", "--json", "--approval", "full-auto", *cli_args("chat"), "run three"),
            cwd=tmp_path,
            env=vtcode.env(cli_env("chat", server)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        _wait_for(lambda: len(server.requests) == 2)
        groups = [_pid(tmp_path / f"g{i}.pid") for i in range(3)]
        escapee = _pid(tmp_path / "escapee.pid")
        assert all(group_members(pgid) for pgid in groups)
        assert alive(escapee)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    # 128 + SIGTERM, as CI runners expect of a cancelled job.
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    assert [group_members(pgid) for pgid in groups] == [[], [], []]
    assert not alive(escapee)
    completed = [
        e["item"]
        for e in events(out)
        if e["type"] == "item.completed" and e["item"]["type"] == "command_execution"
    ]
    assert [(item["command"], item["status"], item["exit_code"]) for item in completed] == [
        (cmd, "completed", None) for cmd in commands
    ]
    results = [json.loads(item["result"]) for item in completed]
    assert [r["is_exited"] for r in results] == [False, False, False]
    # The model saw the follow-up call to make for each running session.
    assert [r["next_wait_args"]["action"] for r in results] == ["wait", "wait", "wait"]


def test_running_session_result_offers_wait_args_and_exit_ends_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    """The model gets next_wait_args for a running command; a normal exit of vtcode ends the session."""
    cmd = "echo $$ > s.pid; sleep 300"
    start = Reply(
        tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd, "yield_time_ms": 250}), id="c1"),)
    )
    with server_for("chat", [start, Reply(text="started it")]) as server:
        result = vtcode.run(
            "exec",
            "--approval",
            "full-auto",
            *cli_args("chat"),
            "start",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
        sent = server.requests[1].json()
    assert result.code == 0, result.stderr
    assert result.stdout == "started it\n"
    tool_result = json.loads(next(m for m in sent["messages"] if m["role"] == "tool")["content"])
    assert tool_result["next_wait_args"] == {
        "session_id": tool_result["session_id"],
        "action": "wait",
        "wait_timeout_seconds": 600,
    }
    assert {"exec_command", "write_stdin"} <= {t["function"]["name"] for t in sent["tools"]}
    assert group_members(int((tmp_path / "s.pid").read_text())) == []


def test_live_output_and_write_stdin_items_in_the_json_stream(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    """While a command runs, its item gets `item.updated` events with the output so far."""
    cmd = "for i in 1 2 3 4 5; do echo tick $i; sleep 0.3; done"
    start = Reply(
        tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd, "yield_time_ms": 5000}), id="c1"),)
    )
    with server_for("chat", [start, Reply(text="done")]) as server:
        result = vtcode.run(
            "exec",
            "--json",
            "--approval",
            "full-auto",
            *cli_args("chat"),
            "tick",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
    assert result.code == 0, result.stderr
    evts = events(result.stdout)
    updates = [e["item"] for e in evts if e["type"] == "item.updated"]
    assert len(updates) >= 2
    assert all(u["type"] == "command_execution" and u["command"] == cmd for u in updates)
    assert updates[-1]["aggregated_output"].startswith("tick 1\n")
    shapes = [(e["type"], e["item"]["type"]) for e in evts if e.get("item")]
    assert shapes.index(("item.updated", "command_execution")) > shapes.index(
        ("item.started", "command_execution")
    )
