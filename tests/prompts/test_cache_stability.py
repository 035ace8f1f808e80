"""Cache stability end to end (issue 4): the static prefix is byte-identical in every request of a session.

A scripted six-request session runs through the real CLI against each loopback wire server; one of the
model's commands edits AGENTS.md. Every request must carry the same static prefix (system text up to the
appendix, plus the tool schemas), and the appendix must change exactly once: at the request after the
edit. Needs the agent wiring of `runtime/system_prompt.py` (SystemPromptBuilder) in `runtime/agent.py`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for

EDIT = "printf '%s\\n' '- Prefer tabs for indentation.' >> AGENTS.md"


def _call(name: str, arguments: dict[str, object], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id=call_id),))


SCRIPT = [
    _call("read_file", {"path": "src/app.py"}, "c1"),
    _call("list_files", {}, "c2"),
    _call("exec_command", {"cmd": EDIT}, "c3"),
    _call("read_file", {"path": "AGENTS.md"}, "c4"),
    _call("list_files", {"path": "src"}, "c5"),
    Reply(text="Done."),
]


def _split(body: dict[str, Any], wire: Wire) -> tuple[str, str]:
    """(static prefix as canonical JSON, appendix text) of one recorded request body."""
    tools = body.get("tools")
    if wire == "anthropic":
        blocks = body["system"]
        static, appendix = blocks[0], (blocks[1]["text"] if len(blocks) > 1 else "")
    elif wire == "responses":
        static = body["instructions"]
        first = body["input"][0]
        appendix = first["content"][0]["text"] if first.get("role") == "developer" else ""
    else:
        messages = body["messages"]
        static = messages[0]
        appendix = messages[1]["content"] if messages[1]["role"] == "system" else ""
    prefix = json.dumps({"static": static, "tools": tools}, sort_keys=True, ensure_ascii=False)
    return prefix, appendix


@pytest.mark.parametrize("wire", WIRES)
def test_static_prefix_is_identical_and_only_the_appendix_follows_the_edit(
    vtcode: VtcodeRunner, tmp_path: Path, wire: Wire
) -> None:
    workspace = tmp_path / "project"
    (workspace / "src").mkdir(parents=True)
    (workspace / "src" / "app.py").write_text("print('hi')\n")
    (workspace / "AGENTS.md").write_text("- Run the tests with pytest.\n")
    with server_for(wire, SCRIPT) as server:
        result = vtcode.run(
            "exec",
            "--json",
            "--approval",
            "full-auto",
            *cli_args(wire),
            "tidy the project",
            cwd=workspace,
            env=cli_env(wire, server),
        )
        bodies = [request.json() for request in server.requests]
    assert result.code == 0, result.stderr
    assert len(bodies) == 6
    parts = [_split(body, wire) for body in bodies]
    prefixes = {prefix for prefix, _ in parts}
    assert len(prefixes) == 1, "the static prefix changed between requests"
    appendices = [appendix for _, appendix in parts]
    before, after = appendices[0], appendices[3]
    assert appendices == [before] * 3 + [after] * 3
    assert before.startswith("# INSTRUCTIONS\n")
    assert "- Run the tests with pytest." in before
    assert "Prefer tabs" not in before
    assert "- Prefer tabs for indentation." in after
    assert "Prefer tabs" not in next(iter(prefixes))
    if wire != "anthropic":
        assert len({body["prompt_cache_key"] for body in bodies}) == 1
