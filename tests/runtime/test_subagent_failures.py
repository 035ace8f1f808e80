"""A subagent that stops before its answer (its turn limit, a provider that keeps failing): the parent's
model reads why, what the child said last, and how to let it go on; the parent's turn goes on."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import msgspec

from tests.runtime.session_helpers import Reader, options
from tests.runtime.test_subagents import task, tool_results
from vtcode.config.schema import NetworkSettings
from vtcode.protocol.events import Notice, TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import HttpError, RecordedRequest, Reply, ScriptToolCall, Step
from vtcode.testing.wire import server_for


def _read(call_id: str, text: str = "") -> Reply:
    return Reply(
        text=text, tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "a.py"}), id=call_id),)
    )


async def test_a_child_past_its_turn_limit_reports_its_progress_and_can_be_continued_by_its_id(
    tmp_path: Path,
) -> None:
    agents = tmp_path / ".vtcode" / "agents"
    agents.mkdir(parents=True)
    (agents / "digger.md").write_text("---\nname: digger\ndescription: digs\nmaxTurns: 2\n---\nDig.\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    steps: list[Step] = [
        Reply(tool_calls=(task("digger", "find where x is set"),)),
        _read("r1", "Looking at a.py first."),
        _read("r2", "PARTIAL-FINDING: x is set in a.py line 1; checking callers next."),
    ]
    resume = {"subagent_type": "digger", "description": "go on", "prompt": "NOW-FINISH"}

    def go_on(request: RecordedRequest) -> Step:
        # The parent takes the advice: it continues the child by the id its result gave.
        if "NOW-FINISH" in json.dumps(request.json()):
            return Reply(text="CHILD-DONE")
        if "CHILD-DONE" in json.dumps(request.json()):
            return Reply(text="parent done")
        agent_id = re.findall(r'resume=\\"(agent-[0-9a-f]+)', json.dumps(request.json()))[-1]
        return Reply(tool_calls=(ScriptToolCall("task", json.dumps({**resume, "resume": agent_id}), "t2"),))

    with server_for("chat", steps[:3]) as server:
        server.responder = go_on
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("go"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    continued = json.dumps(bodies[4]["messages"])
    assert "PARTIAL-FINDING" in continued
    assert continued.index("PARTIAL-FINDING") < continued.index("NOW-FINISH")
    assert tool_results(bodies[5])["t2"].endswith("CHILD-DONE")
    result = tool_results(bodies[3])["t1"]
    head, reason, last, hint = result.split("\n\n")
    assert head.startswith("ERROR: [subagent digger agent-")
    assert ": failed; " in head
    agent_id = head.split()[3].rstrip(":")
    assert reason == "stopped after 2 model requests in one turn without a final answer"
    assert last == (
        "Its last message before it stopped:\n"
        "PARTIAL-FINDING: x is set in a.py line 1; checking callers next."
    )
    assert hint == (
        f'It keeps what it did so far: to let it go on, call task with resume="{agent_id}" '
        "and say what to do next."
    )


async def test_a_child_whose_provider_keeps_failing_is_a_failed_result_and_the_parent_goes_on(
    tmp_path: Path,
) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(task("explore", "look around"),)),
        HttpError(500, "upstream exploded"),
        HttpError(500, "upstream exploded"),
        Reply(text="PARENT-FINAL"),
    ]
    with server_for("chat", steps) as server:
        opts = options(tmp_path, tmp_path, server)
        network = NetworkSettings(max_retries=1)
        opts = dataclasses.replace(opts, settings=msgspec.structs.replace(opts.settings, network=network))
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("go"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert len(bodies) == 4
    result = tool_results(bodies[3])["t1"]
    assert result.startswith("ERROR: [subagent explore agent-")
    assert "HTTP 500: upstream exploded" in result
    assert 'call task with resume="agent-' in result


async def test_a_retry_warning_from_a_child_names_the_child(tmp_path: Path) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(task("explore", "look around"),)),
        HttpError(500, "upstream hiccup"),
        Reply(text="child answer"),
        Reply(text="PARENT-FINAL"),
    ]
    with server_for("chat", steps) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("go"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
    retries = [n.message for n in reader.of(Notice) if "retrying in" in n.message]
    assert len(retries) == 1
    assert re.match(
        r"subagent explore agent-[0-9a-f]+: openai: HTTP 500: upstream hiccup; retrying in ", retries[0]
    )
