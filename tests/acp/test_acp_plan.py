"""The plan over ACP: the editor (the SDK's client side) gets `plan` session updates as the agent plans."""

from __future__ import annotations

import json
from pathlib import Path

from acp import text_block
from acp.schema import AgentPlanUpdate, PlanEntry

from tests.acp.harness import acp_agent
from tests.conftest import VtcodeRunner
from vtcode.acp.updates import Translator
from vtcode.protocol.events import PlanUpdated
from vtcode.protocol.plan import PlanStep
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

FIRST = [
    {"step": "Read the parser", "status": "in_progress"},
    {"step": "Fix the off-by-one", "status": "pending"},
]
SECOND = [
    {"step": "Read the parser", "status": "completed"},
    {"step": "Fix the off-by-one", "status": "in_progress"},
]


def _plan_call(steps: list[dict[str, str]], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("update_plan", json.dumps({"plan": steps}), id=call_id),))


def _entries(update: AgentPlanUpdate) -> list[tuple[str, str]]:
    return [(entry.content, entry.status) for entry in update.entries]


async def test_an_editor_receives_each_plan_as_a_plan_update_and_again_on_load(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    script = [_plan_call(FIRST, "p1"), _plan_call(SECOND, "p2"), Reply(text="on it")]
    with server_for("chat", script) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("fix the parser")])
            assert done.stop_reason == "end_turn"
            plans = [u for u in agent.client.updates if isinstance(u, AgentPlanUpdate)]
    assert [_entries(p) for p in plans] == [
        [("Read the parser", "in_progress"), ("Fix the off-by-one", "pending")],
        [("Read the parser", "completed"), ("Fix the off-by-one", "in_progress")],
    ]
    assert all(entry.priority == "medium" for p in plans for entry in p.entries)
    # An editor that loads the session shows the plan where it stands.
    with server_for("chat", []) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            await agent.conn.initialize(protocol_version=1)
            await agent.conn.load_session(cwd=str(tmp_path), session_id=session_id, mcp_servers=[])
            loaded = [u for u in agent.client.updates if isinstance(u, AgentPlanUpdate)]
    assert [_entries(p) for p in loaded] == [
        [("Read the parser", "completed"), ("Fix the off-by-one", "in_progress")]
    ]


def test_a_cancelled_step_shows_as_completed_and_says_it_was_cancelled() -> None:
    event = PlanUpdated(plan=(PlanStep("Update the docs", "cancelled"), PlanStep("Run the tests", "pending")))
    (update,) = Translator("/ws").updates(event)
    assert isinstance(update, AgentPlanUpdate)
    assert update.entries == [
        PlanEntry(content="Update the docs (cancelled)", priority="medium", status="completed"),
        PlanEntry(content="Run the tests", priority="medium", status="pending"),
    ]
    assert update.model_dump(by_alias=True, exclude_none=True)["sessionUpdate"] == "plan"
