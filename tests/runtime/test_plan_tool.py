"""`update_plan` in a live session: what the model reads back, what is stored, what survives compaction.

Loopback Chat server; the assertions are on the request bodies the model receives and the session files.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import msgspec

from tests.runtime.compaction_agent import Agent, budget_options, texts, wait_turn_end, write_files
from tests.runtime.session_helpers import Reader, options
from vtcode.core.compaction.envelope import ENVELOPE_HEADER
from vtcode.protocol.events import Notice, PlanUpdated, ThreadCompacted, TurnCompleted, TurnFailed
from vtcode.protocol.ops import Compact, UserInput
from vtcode.protocol.plan import Plan, PlanStep
from vtcode.runtime.session import Session
from vtcode.store.plan_file import read_plan
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

THREE_STEPS = [
    {"step": "Read the parser", "status": "in_progress"},
    {"step": "Fix the off-by-one", "status": "pending"},
    {"step": "Run the tests", "status": "pending"},
]


def plan_call(steps: list[dict[str, str]], call_id: str, explanation: str | None = None) -> Reply:
    """A reply that calls `update_plan` with `steps`."""
    arguments: dict[str, Any] = {"plan": steps}
    if explanation is not None:
        arguments["explanation"] = explanation
    return Reply(tool_calls=(ScriptToolCall("update_plan", json.dumps(arguments), id=call_id),))


def tool_result(body: dict[str, Any], call_id: str) -> str:
    """The content of the tool message answering `call_id` in a Chat request body."""
    return str(next(m["content"] for m in body["messages"] if m.get("tool_call_id") == call_id))


async def _run(tmp_path: Path, script: list[Reply]) -> tuple[Session, Reader, list[dict[str, Any]]]:
    with server_for("chat", script) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("fix the parser"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    return session, reader, bodies


async def test_two_steps_in_progress_are_a_tool_error_and_the_plan_stays_as_it_was(tmp_path: Path) -> None:
    two = [{"step": "Read the parser", "status": "in_progress"}, {"step": "Fix it", "status": "in_progress"}]
    session, reader, bodies = await _run(tmp_path, [plan_call(two, "p1"), Reply(text="ok")])
    result = tool_result(bodies[1], "p1")
    assert result.startswith("ERROR: plan not updated: 2 steps are in_progress")
    assert "at most one step can be in_progress" in result
    assert reader.of(PlanUpdated) == []
    assert session.plan == Plan()
    assert not (tmp_path / ".vtcode" / "sessions" / session.id / "plan.json").exists()


async def test_an_update_that_drops_an_unfinished_step_is_answered_with_the_step_named(
    tmp_path: Path,
) -> None:
    shorter = [
        {"step": "Read the parser", "status": "completed"},
        {"step": "Run the tests", "status": "in_progress"},
    ]
    script = [plan_call(THREE_STEPS, "p1", "parser first"), plan_call(shorter, "p2"), Reply(text="ok")]
    session, reader, bodies = await _run(tmp_path, script)
    assert tool_result(bodies[1], "p1") == "Plan updated"
    second = tool_result(bodies[2], "p2")
    assert "1 unfinished step(s) of the previous plan are no longer in it" in second
    assert "- Fix the off-by-one (was pending)" in second
    assert "`cancelled`" in second
    first_event, second_event = reader.of(PlanUpdated)
    assert first_event.explanation == "parser first"
    assert [s.step for s in first_event.plan] == [s["step"] for s in THREE_STEPS]
    assert second_event.dropped == (PlanStep("Fix the off-by-one", "pending"),)
    expected = Plan(
        steps=(PlanStep("Read the parser", "completed"), PlanStep("Run the tests", "in_progress"))
    )
    assert session.plan == expected
    session_dir = tmp_path / ".vtcode" / "sessions" / session.id
    assert read_plan(session_dir) == expected
    # The session's event log keeps both updates.
    logged = [json.loads(line) for line in (session_dir / "events.jsonl").read_text().splitlines()]
    updates = [e for e in logged if e["type"] == "plan.updated"]
    assert [len(e["plan"]) for e in updates] == [3, 2]
    assert updates[1]["dropped"] == [{"step": "Fix the off-by-one", "status": "pending"}]


async def test_cancelling_a_step_instead_of_dropping_it_reports_nothing_dropped(tmp_path: Path) -> None:
    cancelled = [
        {"step": "Read the parser", "status": "completed"},
        {"step": "Fix the off-by-one", "status": "cancelled"},
        {"step": "Run the tests", "status": "in_progress"},
    ]
    script = [plan_call(THREE_STEPS, "p1"), plan_call(cancelled, "p2"), Reply(text="ok")]
    _, reader, bodies = await _run(tmp_path, script)
    assert tool_result(bodies[2], "p2") == "Plan updated"
    assert reader.of(PlanUpdated)[-1].dropped == ()


async def test_malformed_plan_arguments_are_a_tool_error_naming_the_field(tmp_path: Path) -> None:
    bad = [{"step": "Read the parser", "status": "doing"}]
    session, _, bodies = await _run(tmp_path, [plan_call(bad, "p1"), Reply(text="ok")])
    result = tool_result(bodies[1], "p1")
    assert result.startswith("ERROR: plan not updated: invalid arguments")
    assert "status" in result
    assert session.plan == Plan()


async def test_an_unknown_status_is_answered_with_the_statuses_to_use(tmp_path: Path) -> None:
    bad = [{"step": "Read the parser", "status": "done"}]
    _, _, bodies = await _run(tmp_path, [plan_call(bad, "p1"), Reply(text="ok")])
    assert tool_result(bodies[1], "p1") == (
        "ERROR: plan not updated: invalid arguments: Invalid enum value 'done' - at `$.plan[0].status` "
        "(a status is one of: pending, in_progress, completed, cancelled)"
    )


async def test_tools_update_plan_false_offers_no_plan_tool(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="ok")]) as server:
        opts = options(tmp_path, tmp_path, server)
        tools = msgspec.structs.replace(opts.settings.tools, update_plan=False)
        settings = msgspec.structs.replace(opts.settings, tools=tools)
        session = await Session.open(dataclasses.replace(opts, settings=settings))
        reader = Reader(session)
        await session.submit(UserInput("fix the parser"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        offered = [t["function"]["name"] for t in server.requests[0].json()["tools"]]
    assert "update_plan" not in offered
    assert "read_file" in offered


async def test_the_current_plan_reaches_the_model_after_a_compaction(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 12, 150))
    agent.special["make a plan"] = ScriptToolCall("update_plan", json.dumps({"plan": THREE_STEPS}), id="p1")
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(budget_options(ws, tmp_path, server, max_context_tokens=30_000))
        reader = Reader(session)
        turns = ["make a plan", *(f"task {n}: read the next files" for n in range(3))]
        for ended, text in enumerate(turns):
            await session.submit(UserInput(text))
            await wait_turn_end(reader, ended)
        await session.submit(Compact())
        await reader.wait_for(ThreadCompacted)
        await session.submit(UserInput("go on"))
        await wait_turn_end(reader, len(turns))
        await reader.close()
    assert not reader.of(TurnFailed)
    body = agent.bodies("main")[-1]
    # The call that set the plan was summarized away; the plan itself is in the envelope.
    assert "update_plan" not in json.dumps(body["messages"])
    (envelope,) = [t for t in texts(body, "system") if t.startswith(ENVELOPE_HEADER)]
    assert "Task Tracker:\n[>] Read the parser\n[ ] Fix the off-by-one\n[ ] Run the tests" in envelope


async def test_a_damaged_stored_plan_is_reported_on_resume_and_the_session_goes_on(tmp_path: Path) -> None:
    script = [plan_call(THREE_STEPS, "p1"), Reply(text="planned"), Reply(text="still here")]
    with server_for("chat", script) as server:
        opts = options(tmp_path, tmp_path, server)
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("plan it"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        (tmp_path / ".vtcode" / "sessions" / session.id / "plan.json").write_text("{not json")
        resumed = await Session.open(dataclasses.replace(opts, resume=session.id))
        second = Reader(resumed)
        await resumed.submit(UserInput("go on"))
        done = await second.wait_for(TurnCompleted)
        await second.close()
    notices = [e.message for e in second.of(Notice)]
    assert any("the stored plan is not used" in n and "plan.json" in n for n in notices), notices
    assert resumed.plan == Plan()
    assert done.pending_intents == 0
