"""Interrupting a parent while three subagents wait on real commands."""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path

from tests.runtime.session_helpers import Reader, options
from vtcode.protocol.events import TurnCompleted, TurnFailed
from vtcode.protocol.messages import ToolResultMessage
from vtcode.protocol.ops import Interrupt, UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import RecordedRequest, Reply, ScriptToolCall, Step
from vtcode.testing.wire import server_for

NAMES = ("A", "B", "C")


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def test_an_interrupt_ends_every_child_and_its_commands_and_the_parent_goes_on(tmp_path: Path) -> None:
    def respond(request: RecordedRequest) -> Step:
        # A child's brief is its user message; the parent's messages only carry it in task calls.
        said = json.dumps([m for m in request.json()["messages"] if m["role"] == "user"])
        child = next((n for n in NAMES if f"CHILD-{n}" in said), None)
        if child is None:
            return Reply(text="the parent goes on")
        command = f"echo $$ > pid-{child}; exec sleep 300"
        arguments = json.dumps({"cmd": command, "yield_time_ms": 30000})
        return Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id=f"x{child}"),))

    calls = tuple(
        ScriptToolCall(
            "task",
            json.dumps({"subagent_type": "general", "description": n, "prompt": f"CHILD-{n} brief"}),
            id=f"t{n}",
        )
        for n in NAMES
    )
    with server_for("chat", [Reply(tool_calls=calls)]) as server:
        server.responder = respond
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("fan out"))
        pid_files = [tmp_path / f"pid-{n}" for n in NAMES]
        async with asyncio.timeout(60):
            while not all(p.is_file() and p.read_text().strip() for p in pid_files):  # noqa: ASYNC110 - files
                await asyncio.sleep(0.05)
        groups = [int(p.read_text()) for p in pid_files]
        assert all(_group_alive(g) for g in groups)
        await session.submit(Interrupt())
        failed = await reader.wait_for(TurnFailed)
        assert failed.kind == "interrupted"
        async with asyncio.timeout(30):
            while any(_group_alive(g) for g in groups):  # noqa: ASYNC110 - processes
                await asyncio.sleep(0.05)
        # Exactly one result per task call, in the history the next request carries.
        results = [m.call_id for m in session.messages if isinstance(m, ToolResultMessage)]
        assert sorted(results) == ["tA", "tB", "tC"]
        await session.submit(UserInput("and now?"))
        done = await reader.wait_for(TurnCompleted)
        await reader.close()
        last = server.requests[-1].json()
    assert done.pending_intents == 0
    sent = [m["tool_call_id"] for m in last["messages"] if m["role"] == "tool"]
    assert sorted(sent) == ["tA", "tB", "tC"]


async def test_an_interrupted_childs_id_reaches_the_parent_and_it_can_be_continued(tmp_path: Path) -> None:
    def respond(request: RecordedRequest) -> Step:
        said = json.dumps(request.json()["messages"])
        if "NOW-GO-ON" in said:
            # The continued child: it has its own earlier call and the new prompt.
            return Reply(text="CHILD-CONTINUED")
        if "CHILD-CONTINUED" in said:
            return Reply(text="parent done")
        if "and now?" in said:
            agent_id = re.findall(r'resume=\\"(agent-[0-9a-f]+)', said)[-1]
            follow = {"subagent_type": "general", "description": "go on", "prompt": "NOW-GO-ON"}
            arguments = json.dumps({**follow, "resume": agent_id})
            return Reply(tool_calls=(ScriptToolCall("task", arguments, id="t2"),))
        arguments = json.dumps({"cmd": "echo $$ > pid-A; exec sleep 300", "yield_time_ms": 30000})
        return Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id="xA"),))

    brief = {"subagent_type": "general", "description": "A", "prompt": "CHILD-A brief"}
    first = Reply(tool_calls=(ScriptToolCall("task", json.dumps(brief), id="tA"),))
    with server_for("chat", [first]) as server:
        server.responder = respond
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("delegate"))
        pid_file = tmp_path / "pid-A"
        async with asyncio.timeout(60):
            while not (pid_file.is_file() and pid_file.read_text().strip()):  # noqa: ASYNC110 - a file
                await asyncio.sleep(0.05)
        await session.submit(Interrupt())
        await reader.wait_for(TurnFailed)
        await session.submit(UserInput("and now?"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    told = next(m["content"] for m in bodies[2]["messages"] if m.get("tool_call_id") == "tA")
    reason, note = told.split("\n\n")
    assert reason == "ERROR: interrupted by the user before this call finished"
    agent_id = re.findall(r"agent-[0-9a-f]+", note)[0]
    assert note == (
        f"Subagent {agent_id} was stopped; it keeps what it did so far: to let it go on, call task "
        f'with resume="{agent_id}" and say what to do next.'
    )
    continued = json.dumps(bodies[3]["messages"])
    assert continued.index("CHILD-A brief") < continued.index("pid-A") < continued.index("NOW-GO-ON")
    last = next(m["content"] for m in bodies[4]["messages"] if m.get("tool_call_id") == "t2")
    assert last.startswith(f"[subagent general {agent_id}: completed;")
