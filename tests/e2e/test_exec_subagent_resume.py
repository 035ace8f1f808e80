"""A subagent of an earlier `vtcode exec` run is continued by its id after `vtcode exec --resume`: its
transcript comes from the parent session's store, so the child keeps what it read."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _task(arguments: dict[str, str], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("task", json.dumps(arguments), id=call_id),))


def test_a_subagent_is_continued_by_its_id_after_exec_resume(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("STORED-LINE-ONE\n")
    brief = {"subagent_type": "explore", "description": "read", "prompt": "BRIEF: read a.py"}
    first_script = [
        _task(brief, "t1"),
        Reply(tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "a.py"}), id="r1"),)),
        Reply(text="FIRST-ANSWER"),
        Reply(text="noted"),
    ]
    with server_for("chat", first_script) as server:
        first = vtcode.run(
            "exec", "--json", *cli_args("chat"), "go", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert first.code == 0, first.stderr
    session = events(first.stdout)[0]["thread_id"]
    (agent_id,) = set(re.findall(r"agent-[0-9a-f]+", first.stdout))
    # The call names another type: the continued child keeps its own (read-only) one.
    follow = {**brief, "subagent_type": "general", "prompt": "NEW-QUESTION", "resume": agent_id}
    with server_for("chat", [_task(follow, "t2"), Reply(text="SECOND-ANSWER"), Reply(text="done")]) as server:
        resumed = vtcode.run(
            "exec", "--resume", session, *cli_args("chat"), "more", cwd=tmp_path, env=cli_env("chat", server)
        )
        bodies = [r.json() for r in server.requests]
    assert resumed.code == 0, resumed.stderr
    assert sorted(t["function"]["name"] for t in bodies[1]["tools"]) == [
        "grep_files",
        "list_files",
        "read_file",
    ]
    child = json.dumps(bodies[1]["messages"])
    for earlier in ("BRIEF: read a.py", "STORED-LINE-ONE", "FIRST-ANSWER", "NEW-QUESTION"):
        assert earlier in child, earlier
    result = next(m["content"] for m in bodies[2]["messages"] if m.get("tool_call_id") == "t2")
    assert result.startswith(f"[subagent explore {agent_id}: completed;")
    assert result.endswith("SECOND-ANSWER")
