"""The whole agent, end to end: `vtcode exec --json` as a subprocess against each loopback wire format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import FIX_PATCH, events, git_repo, shape
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for


def _call(name: str, args: dict[str, object], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(args), id=call_id),), chunk_size=7)


@pytest.mark.parametrize("wire", WIRES)
def test_agent_fixes_a_bug_end_to_end(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire) -> None:
    repo = git_repo(tmp_path / "repo")
    script = [
        _call("list_files", {}, "c1"),
        _call("read_file", {"path": "calc.py"}, "c2"),
        _call("apply_patch", {"patch": FIX_PATCH}, "c3"),
        _call("exec_command", {"cmd": "python3 check.py"}, "c4"),
        Reply(text="Fixed `add` in calc.py; check.py passes."),
    ]
    with server_for(wire, script) as server:
        result = vtcode.run(
            "exec",
            "--json",
            "--approval",
            "full-auto",
            *cli_args(wire),
            "fix the add bug",
            cwd=repo,
            env=cli_env(wire, server),
        )
        requests = [r.json() for r in server.requests]
    assert result.code == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert (repo / "calc.py").read_text().startswith("def add(a, b):\n    return a + b\n")
    evts = events(result.stdout)
    assert shape(evts) == [
        "thread.started",
        "turn.started",
        "item.started:tool_call",
        "item.completed:tool_call",
        "item.started:tool_call",
        "item.completed:tool_call",
        "item.started:file_change",
        "item.completed:file_change",
        "item.started:command_execution",
        "item.completed:command_execution",
        "item.started:agent_message",
        "item.completed:agent_message",
        "turn.completed",
        "usage",
        "thread.completed",
    ]
    assert evts[0]["workspace"] == str(repo)
    by_type = {e["item"]["type"]: e["item"] for e in evts if e["type"] == "item.completed"}
    (change,) = by_type["file_change"]["changes"]
    assert (change["path"], change["kind"]) == ("calc.py", "update")
    assert "-    return a - b\n+    return a + b\n" in change["diff"]
    command = by_type["command_execution"]
    assert (command["command"], command["exit_code"], command["status"]) == (
        "python3 check.py",
        0,
        "completed",
    )
    assert "ok: 1 passed" in command["aggregated_output"]
    assert by_type["agent_message"]["text"] == "Fixed `add` in calc.py; check.py passes."
    assert evts[-3]["usage"]["input_tokens"] > 0
    # The model saw every tool result: the last request carries the command's output.
    assert len(requests) == 5
    assert "ok: 1 passed" in json.dumps(requests[-1])
    assert "calc.py" in json.dumps(requests[1])  # list_files result in the 2nd request


def test_text_mode_prints_the_answer_on_stdout(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="Hello from the model.")]) as server:
        result = vtcode.run("exec", *cli_args("chat"), "say hi", cwd=tmp_path, env=cli_env("chat", server))
    assert result.code == 0, result.stderr
    assert result.stdout == "Hello from the model.\n"


def test_prompt_from_stdin(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="done")]) as server:
        result = vtcode.run(
            "exec", *cli_args("chat"), "-", cwd=tmp_path, env=cli_env("chat", server), input="from stdin\n"
        )
        body = server.requests[0].json()
    assert result.code == 0, result.stderr
    assert body["messages"][-1] == {"role": "user", "content": "from stdin\n"}


def test_max_turns_limit_exits_1(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    script = [_call("list_files", {}, f"c{i}") for i in range(3)]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", "--max-turns", "2", *cli_args("chat"), "loop", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert result.code == 1
    assert "stopped after 2 model requests" in result.stderr
    assert "Traceback" not in result.stderr


def test_local_ollama_is_found_and_its_installed_model_used(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    # No API key anywhere: vtcode finds the Ollama server on OLLAMA_HOST and picks an installed model.
    with server_for("chat", [Reply(text="hello from ollama")]) as server:
        server.model_names = ("qwen3-coder:30b",)
        host = server.base_url.removesuffix("/v1")
        result = vtcode.run("exec", "hi", cwd=tmp_path, env={"OLLAMA_HOST": host})
        body = server.requests[0].json()
    assert result.code == 0, result.stderr
    assert result.stdout == "hello from ollama\n"
    assert body["model"] == "qwen3-coder:30b"
