"""A subagent's tool calls pass through its parent's hooks and deny rules (real `vtcode exec`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, script, user_config
from vtcode.testing.script import Reply, ScriptToolCall

FULL_AUTO = ("--approval", "full-auto")


def _delegate(brief: str) -> Reply:
    arguments = {"subagent_type": "general", "description": "touch a file", "prompt": brief}
    return Reply(tool_calls=(ScriptToolCall("task", json.dumps(arguments), id="t1"),))


def test_the_parents_pre_tool_use_hook_denies_the_childs_call_and_sees_the_agent(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    log = tmp_path / "seen.jsonl"
    guard = script(
        tmp_path / "hooks" / "guard.sh", f"cat >> {log}\necho >> {log}\necho no shell >&2\nexit 2\n"
    )
    seen = script(tmp_path / "hooks" / "seen.sh", f"cat >> {log}\necho >> {log}\n")
    user_config(
        isolated_home,
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{guard}"\n'
        f'[[hooks.SubagentStart]]\n[[hooks.SubagentStart.hooks]]\ncommand = "{seen}"\n'
        f'[[hooks.SubagentStop]]\n[[hooks.SubagentStop.hooks]]\ncommand = "{seen}"\n',
    )
    steps = [
        _delegate("make ran.txt"),
        call("exec_command", {"cmd": "touch ran.txt"}, "c1"),
        Reply(text="the hook said no"),
        Reply(text="ok"),
    ]
    run = exec_run(vtcode, ws, steps, *FULL_AUTO)
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert run.tool_results(2) == ["ERROR: not run: no shell"]
    inputs = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    events = [(i["hook_event_name"], i.get("agent_type")) for i in inputs]
    assert events == [("SubagentStart", "general"), ("PreToolUse", "general"), ("SubagentStop", "general")]
    agent_ids = {i["agent_id"] for i in inputs}
    assert len(agent_ids) == 1
    assert next(iter(agent_ids)).startswith("agent-")
    assert inputs[2]["last_assistant_message"] == "the hook said no"
    assert Path(inputs[2]["agent_transcript_path"]).is_file()


def test_the_parents_deny_rule_holds_in_the_child(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    steps = [
        _delegate("make ran.txt"),
        call("exec_command", {"cmd": "touch ran.txt"}, "c1"),
        Reply(text="denied"),
        Reply(text="ok"),
    ]
    run = exec_run(vtcode, ws, steps, *FULL_AUTO, "-c", 'approvals.deny=["touch"]')
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert "matches the deny rule `touch`" in run.tool_results(2)[0]


def test_a_subagent_stop_hook_that_blocks_keeps_the_child_working_once_more(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    marker = tmp_path / "blocked-once"
    gate = script(
        tmp_path / "hooks" / "gate.sh",
        f"cat > /dev/null\nif [ -e {marker} ]; then exit 0; fi\ntouch {marker}\n"
        "echo check the tests too >&2\nexit 2\n",
    )
    user_config(
        isolated_home,
        f'[[hooks.SubagentStop]]\nmatcher = "general"\n[[hooks.SubagentStop.hooks]]\ncommand = "{gate}"\n',
    )
    steps = [
        _delegate("review"),
        Reply(text="first answer"),
        Reply(text="tests checked too"),
        Reply(text="ok"),
    ]
    run = exec_run(vtcode, ws, steps, *FULL_AUTO)
    assert run.result.code == 0, run.result.stderr
    assert run.user_texts(2)[-1] == "A SubagentStop hook asks you to continue: check the tests too"
    assert "first answer" not in run.tool_results(3)[0]
    assert run.tool_results(3)[0].endswith("tests checked too")
