"""A subagent's transcript is stored in its parent's session and `vtcode sessions show` lists it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import exec_run

from vtcode.testing.script import Reply, ScriptToolCall


def test_sessions_show_lists_the_subagents_with_their_stored_transcripts(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    arguments = {"subagent_type": "explore", "description": "look", "prompt": "BRIEF-FOR-THE-CHILD"}
    steps = [
        Reply(tool_calls=(ScriptToolCall("task", json.dumps(arguments), id="t1"),)),
        Reply(text="child says hi"),
        Reply(text="ok"),
    ]
    run = exec_run(vtcode, tmp_path, steps)
    assert run.result.code == 0, run.result.stderr
    thread = run.of("thread.started")[0]["thread_id"]
    shown = vtcode.run("sessions", "show", thread, cwd=tmp_path)
    assert shown.code == 0, shown.stderr
    lines = shown.stdout.split("subagents (1):\n")[1].splitlines()
    agent_id = lines[0].split()[0]
    assert agent_id.startswith("agent-")
    assert "BRIEF-FOR-THE-CHILD" in lines[0]
    transcript = Path(lines[1].strip())
    assert transcript.is_relative_to(isolated_home / ".vtcode" / "sessions" / thread)
    assert "child says hi" in transcript.read_text()
    as_json = json.loads(vtcode.run("sessions", "show", "--json", thread, cwd=tmp_path).stdout)
    assert [s["id"] for s in as_json["subagents"]] == [agent_id]
