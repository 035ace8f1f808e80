"""The plan in `vtcode exec`: streamed as `plan.updated`, and still the session's plan after `--resume`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

PLAN = [
    {"step": "Read the parser", "status": "in_progress"},
    {"step": "Fix the off-by-one", "status": "pending"},
]


def _plan_call(steps: list[dict[str, str]], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("update_plan", json.dumps({"plan": steps}), id=call_id),))


def test_exec_json_emits_plan_updated_with_the_whole_plan(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [_plan_call(PLAN, "p1"), Reply(text="planned")]) as server:
        result = vtcode.run(
            "exec", "--json", *cli_args("chat"), "plan it", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert result.code == 0, result.stderr
    updates = [e for e in events(result.stdout) if e["type"] == "plan.updated"]
    assert len(updates) == 1
    assert updates[0]["plan"] == PLAN
    assert updates[0]["turn_id"] == "turn_1"


def test_the_plan_is_the_sessions_plan_again_after_exec_resume(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    # The resumed run drops the pending step: only a plan restored from the store can tell.
    done = [{"step": "Read the parser", "status": "completed"}]
    script = [_plan_call(PLAN, "p1"), Reply(text="planned"), _plan_call(done, "p2"), Reply(text="ok")]
    with server_for("chat", script) as server:
        env = cli_env("chat", server)
        first = vtcode.run("exec", "--json", *cli_args("chat"), "plan it", cwd=tmp_path, env=env)
        session = events(first.stdout)[0]["thread_id"]
        resumed = vtcode.run(
            "exec", "--json", "--resume", session, *cli_args("chat"), "go on", cwd=tmp_path, env=env
        )
        bodies = [r.json() for r in server.requests]
    assert first.code == 0, first.stderr
    assert resumed.code == 0, resumed.stderr
    answer = next(m["content"] for m in bodies[3]["messages"] if m.get("tool_call_id") == "p2")
    assert "- Fix the off-by-one (was pending)" in answer
    (update,) = [e for e in events(resumed.stdout) if e["type"] == "plan.updated"]
    assert update["dropped"] == [PLAN[1]]


def test_exec_prints_the_plans_progress_and_its_dropped_steps_on_stderr(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    done = [{"step": "Read the parser", "status": "completed"}]
    script = [_plan_call(PLAN, "p1"), _plan_call(done, "p2"), Reply(text="planned")]
    with server_for("chat", script) as server:
        result = vtcode.run("exec", *cli_args("chat"), "plan it", cwd=tmp_path, env=cli_env("chat", server))
    assert result.code == 0, result.stderr
    lines = result.stderr.splitlines()
    assert "plan 0/2 done; now: Read the parser" in lines
    assert "plan done (1 step)" in lines
    assert "  dropped from the plan: Fix the off-by-one" in lines
    assert not any("update_plan" in line for line in lines)
    assert result.stdout == "planned\n"
