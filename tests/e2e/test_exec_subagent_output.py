"""What `vtcode exec` prints on stderr for a subagent: the task's label, then its outcome."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _call(name: str, arguments: dict[str, str], call_id: str) -> ScriptToolCall:
    return ScriptToolCall(name, json.dumps(arguments), id=call_id)


def test_exec_shows_each_subagents_label_and_outcome(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    agents = tmp_path / ".vtcode" / "agents"
    agents.mkdir(parents=True)
    (agents / "digger.md").write_text("---\nname: digger\ndescription: digs\nmaxTurns: 1\n---\nDig.\n")
    writer = {"subagent_type": "general", "description": "write the notes", "prompt": "write notes.txt"}
    digger = {"subagent_type": "digger", "description": "dig forever", "prompt": "dig"}
    script = [
        Reply(tool_calls=(_call("task", writer, "t1"),)),
        Reply(tool_calls=(_call("write_file", {"path": "notes.txt", "content": "hi\n"}, "w1"),)),
        Reply(text="wrote it"),
        Reply(tool_calls=(_call("task", digger, "t2"),)),
        Reply(tool_calls=(_call("list_files", {"path": "."}, "l1"),)),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec",
            "--approval",
            "full-auto",
            *cli_args("chat"),
            "go",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
    assert result.code == 0, result.stderr
    lines = [re.sub(r"agent-[0-9a-f]+", "agent-ID", line) for line in result.stderr.splitlines()]
    # gpt-4.1's list prices; the scripted replies report 10 tokens in and 5 out each.
    assert lines[:5] == [
        "• task general: write the notes",
        "  agent-ID: completed; 30 tokens, $0.0001; 1 tool call; files changed: notes.txt",
        "• task digger: dig forever  (failed)",
        "  agent-ID: failed; 15 tokens, $0.0001; 1 tool call; files changed: none",
        "  stopped after 1 model requests in one turn without a final answer",
    ]
