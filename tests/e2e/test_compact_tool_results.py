"""What a command result costs the model: compact results on the wire, the whole result in the events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

# The ceiling per round trip of the compact results (it was 511-523 B with the full result objects).
MAX_BYTES_PER_ROUND_TRIP = 260


def _call(name: str, args: dict[str, object], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(args), id=call_id),))


def _run(vtcode: VtcodeRunner, work: Path, script: list[Reply]) -> tuple[list[dict[str, Any]], list[Any]]:
    """Run `vtcode exec --json` on the Chat wire; its events and the request bodies the server got."""
    work.mkdir(exist_ok=True)
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec",
            "--json",
            "--approval",
            "full-auto",
            *cli_args("chat"),
            "run the commands",
            cwd=work,
            env=cli_env("chat", server),
        )
        bodies = [r.json() for r in server.requests]
    assert result.code == 0, result.stderr
    return events(result.stdout), bodies


def _compact_size(body: Any) -> int:
    return len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


def _tool_message(body: Any, call_id: str) -> str:
    """The content of the tool message answering `call_id` in a request body."""
    found = [m["content"] for m in body["messages"] if m.get("tool_call_id") == call_id]
    assert len(found) == 1, body["messages"]
    return str(found[0])


def _completed_commands(evts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        e["item"] for e in evts if e["type"] == "item.completed" and e["item"]["type"] == "command_execution"
    ]


def test_ten_echo_calls_add_at_most_260_bytes_per_round_trip(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ids = [f"call_{n:010d}" for n in range(1, 11)]
    assert {len(i) for i in ids} == {15}
    script = [_call("exec_command", {"cmd": f"echo {n}"}, ids[n - 1]) for n in range(1, 11)]
    evts, bodies = _run(vtcode, tmp_path / "work", [*script, Reply(text="done")])
    assert len(bodies) == 11
    per_round_trip = (_compact_size(bodies[10]) - _compact_size(bodies[1])) / 9
    assert per_round_trip <= MAX_BYTES_PER_ROUND_TRIP
    # What one round trip now looks like on the wire: no null content, only the exit code and output.
    assert bodies[1]["messages"][-2:] == [
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": ids[0],
                    "type": "function",
                    "function": {"name": "exec_command", "arguments": '{"cmd": "echo 1"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": ids[0], "content": '{"exit_code":0,"output":"1\\n"}'},
    ]
    # The events keep the whole result object for front ends and --json consumers, and the command's
    # own output as `aggregated_output`.
    assert _completed_commands(evts)[0]["aggregated_output"] == "1\n"
    first = json.loads(_completed_commands(evts)[0]["result"])
    assert {k: first[k] for k in ("success", "command", "backend", "working_directory", "is_exited")} == {
        "success": True,
        "command": "echo 1",
        "backend": "pipe",
        "working_directory": ".",
        "is_exited": True,
    }
    assert {"session_id", "wall_time", "output_drained", "total_output_bytes"} <= set(first)
    # events.jsonl records the same whole items as the --json stream, less the parsed copy of the result
    # that only the --json stream adds (`result_json`, rebuilt from `result`).
    (log,) = (vtcode.home / ".vtcode" / "sessions").glob("*/events.jsonl")
    stored = [json.loads(line) for line in log.read_text().splitlines()]
    streamed = _completed_commands(evts)
    assert [item["result_json"] for item in streamed] == [json.loads(item["result"]) for item in streamed]
    assert _completed_commands(stored) == [{**item, "result_json": None} for item in streamed]


def test_failing_cut_and_running_commands_still_say_so(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    script = [
        _call("exec_command", {"cmd": "echo broken; exit 3"}, "call_fail000001"),
        _call(
            "exec_command",
            {"cmd": "seq 1 5000", "max_output_tokens": 50},
            "call_long000001",
        ),
        _call("exec_command", {"cmd": "sleep 30", "yield_time_ms": 250}, "call_slow000001"),
        Reply(text="done"),
    ]
    evts, bodies = _run(vtcode, tmp_path / "work", script)
    last = bodies[-1]

    failed = _tool_message(last, "call_fail000001")
    # Chat Completions has no error flag on tool messages: the prefix marks the failure.
    assert failed == 'ERROR: {"exit_code":3,"output":"broken\\n"}'

    cut = json.loads(_tool_message(last, "call_long000001"))
    spool = cut["spool_path"]
    assert spool.startswith(".vtcode/context/tool_outputs/")
    assert spool.endswith(".log")
    assert (cut["exit_code"], cut["truncated"], cut["spool_complete"]) == (0, True, True)
    assert cut["output"].startswith("1\n")
    assert cut["output"].endswith("5000\n")
    assert (tmp_path / "work" / spool).read_text() == "".join(f"{n}\n" for n in range(1, 5001))

    running = json.loads(_tool_message(last, "call_slow000001"))
    session = running["session_id"]
    assert running == {
        "session_id": session,
        "is_exited": False,
        "next_wait_args": {"session_id": session, "action": "wait", "wait_timeout_seconds": 600},
        "output": "",
    }

    items = _completed_commands(evts)
    assert [i["exit_code"] for i in items] == [3, 0, None]
    full = [json.loads(i["result"]) for i in items]
    assert full[0]["command"] == "echo broken; exit 3"
    assert full[1]["omitted_bytes"] > 0
    assert full[1]["spool_path"] == spool
    assert full[2]["next_continue_args"] == {"session_id": session}
