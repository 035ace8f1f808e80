"""Continuing a subagent by its id: `task(resume=agent_id, prompt=...)` gives the child its own earlier
conversation back, so a follow-up needs no "continue the previous task" brief (which is refused).

Assertions are on the request bodies the loopback model server received.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.runtime.session_helpers import Reader, options
from tests.runtime.test_subagents import run, task, texts, tool_results
from vtcode.protocol.events import TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import RecordedRequest, Reply, ScriptToolCall, Step
from vtcode.testing.wire import server_for

_AGENT_ID = re.compile(r"agent-[0-9a-f]+")


def _resume(agent_id: str, prompt: str, call_id: str) -> Reply:
    arguments = {"subagent_type": "explore", "description": "follow up", "prompt": prompt, "resume": agent_id}
    return Reply(tool_calls=(ScriptToolCall("task", json.dumps(arguments), id=call_id),))


def _follow_up_script() -> list[Step | Callable[[RecordedRequest], Step]]:
    """Turn 1: a child reads a.py and answers. Turn 2: the parent continues that child by its id."""

    def resume_it(request: RecordedRequest) -> Step:
        agent_id = _AGENT_ID.findall(texts(request.json()))[-1]
        return _resume(agent_id, "NEW-QUESTION: and the second line?", "t2")

    return [
        Reply(tool_calls=(task("explore", "BRIEF-ONE: read a.py and say its first line"),)),
        Reply(tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "a.py"}), id="r1"),)),
        Reply(text="FIRST-ANSWER: line one"),
        Reply(text="parent: noted"),
        resume_it,
        Reply(text="SECOND-ANSWER: line two"),
        Reply(text="parent: done"),
    ]


@pytest.mark.parametrize("ephemeral", [False, True])
async def test_a_child_continued_by_its_id_gets_its_earlier_conversation_and_the_new_prompt(
    tmp_path: Path, ephemeral: bool
) -> None:
    (tmp_path / "a.py").write_text("A-PY-LINE-ONE\nA-PY-LINE-TWO\n")
    script = _follow_up_script()
    with server_for("chat") as server:

        def respond(request: RecordedRequest) -> Step:
            step = script.pop(0)
            return step if isinstance(step, Step) else step(request)

        server.responder = respond
        opts = dataclasses.replace(options(tmp_path, tmp_path, server), ephemeral=ephemeral)
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("PARENT-SECRET first"))
        await reader.wait_for(TurnCompleted)
        await session.submit(UserInput("PARENT-SECRET second"))
        await reader.wait_for(TurnCompleted, after=len(reader.events))
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert len(bodies) == 7
    first_id = _AGENT_ID.findall(tool_results(bodies[3])["t1"])[0]
    resumed = bodies[5]
    said = texts(resumed)
    # The child has what it read and answered before, then the new prompt; still none of the parent's.
    for earlier in ("BRIEF-ONE", "A-PY-LINE-ONE", "FIRST-ANSWER", "NEW-QUESTION"):
        assert earlier in said, earlier
    assert said.index("FIRST-ANSWER") < said.index("NEW-QUESTION")
    assert "PARENT-SECRET" not in json.dumps(resumed)
    assert sorted(t["function"]["name"] for t in resumed["tools"]) == [
        "grep_files",
        "list_files",
        "read_file",
    ]
    result = tool_results(bodies[6])["t2"]
    assert result.startswith(f"[subagent explore {first_id}: completed;")
    # This run's calls only: the earlier read_file is not counted again.
    assert "; 0 tool calls; " in result
    assert result.endswith("SECOND-ANSWER: line two")


@pytest.mark.parametrize(
    "brief", ["continue the previous task", "Keep going", "finish your last task please"]
)
async def test_a_brief_that_only_points_back_is_refused_with_how_to_resume(
    tmp_path: Path, brief: str
) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(task("general", brief),)),
        Reply(text="CHILD-SHOULD-NOT-RUN"),
        Reply(text="done"),
    ]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    result = tool_results(bodies[1])["t1"]
    assert result.startswith("ERROR: refused: a new subagent cannot see this conversation")
    assert "`resume`" in result
    assert "CHILD-SHOULD-NOT-RUN" not in json.dumps(bodies[1])


async def test_resuming_an_unknown_agent_id_is_an_error_and_starts_no_child(tmp_path: Path) -> None:
    steps: list[Step] = [
        _resume("agent-0123456789ab", "and then?", "t1"),
        Reply(text="CHILD-SHOULD-NOT-RUN"),
        Reply(text="done"),
    ]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    result = tool_results(bodies[1])["t1"]
    assert result == (
        "ERROR: no subagent agent-0123456789ab ran in this session; start a new one with a complete brief"
    )
