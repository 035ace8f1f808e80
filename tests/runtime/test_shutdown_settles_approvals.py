"""Closing a session while an approval waits for an answer ends promptly, whichever front end closes it.

The pending call is settled as denied (the event stream says why) and its result is stored, so a resume
hands the model its prompt, its call and the call's answer. Front ends: the `Session` itself, the SDK
(in process and through its child process) and `vtcode acp` with an editor that never answers.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import signal
from pathlib import Path

import pytest
from acp import text_block

import vtcode.sdk as vt
from tests.acp.harness import EditorClient, acp_agent
from tests.conftest import VtcodeRunner
from tests.runtime.session_helpers import Reader, options
from tests.sdk.sdk_helpers import sdk_options
from vtcode.protocol.events import ApprovalRequested, ApprovalResolved, TurnCompleted, TurnFailed
from vtcode.protocol.ops import Shutdown, UserInput
from vtcode.runtime.approval_port import WITHDRAWN
from vtcode.runtime.session import Session
from vtcode.runtime.tool_dispatch import INTERRUPTED_APPROVAL
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

# Generous: the machine is shared; a close that hangs never ends at all.
CLOSE_TIMEOUT = 60.0
PROMPT = "touch the marker"


def _touch() -> Reply:
    arguments = json.dumps({"cmd": "touch marker.txt"})
    return Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id="c1"),))


async def test_shutdown_with_an_approval_pending_denies_it_and_a_resume_sends_the_call_and_its_answer(
    tmp_path: Path,
) -> None:
    with server_for("chat", [_touch(), Reply(text="resumed")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server, approval="ask", headless=False))
        reader = Reader(session)
        await session.submit(UserInput(PROMPT))
        asked = await reader.wait_for(ApprovalRequested)
        async with asyncio.timeout(CLOSE_TIMEOUT):
            await session.submit(Shutdown())
            await reader.task
        resolved = reader.of(ApprovalResolved)
        assert [(e.request_id, e.decision, e.reason) for e in resolved] == [
            (asked.request_id, "deny", INTERRUPTED_APPROVAL)
        ]
        assert [e.kind for e in reader.of(TurnFailed)] == ["interrupted"]
        assert not (tmp_path / "marker.txt").exists()

        opened = options(tmp_path, tmp_path, server, approval="ask", headless=False)
        resumed = await Session.open(dataclasses.replace(opened, resume=session.id))
        again = Reader(resumed)
        await resumed.submit(UserInput("go on"))
        await again.wait_for(TurnCompleted)
        await again.close()
    messages = server.requests[-1].json()["messages"]
    assert [m["content"] for m in messages if m["role"] == "user"][-2:] == [PROMPT, "go on"]
    calls = [c["id"] for m in messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    assert calls == ["c1"]
    assert [(m["tool_call_id"], m["content"]) for m in messages if m["role"] == "tool"] == [
        ("c1", f"ERROR: {WITHDRAWN}")
    ]


@pytest.mark.parametrize("transport", ["in-process", "subprocess"])
async def test_closing_an_sdk_session_with_an_approval_pending_denies_it_and_ends(
    tmp_path: Path, transport: TransportName
) -> None:
    with server_for("chat", [_touch()]) as server:
        session = await vt.Session.open(sdk_options(tmp_path, server, approval="ask", transport=transport))
        turn = await session.start(PROMPT)
        events: list[vt.Event] = []
        async with asyncio.timeout(CLOSE_TIMEOUT):
            async for event in turn.events():
                events.append(event)
                if isinstance(event, vt.ApprovalRequested):
                    # Nobody answers: the session is closed with the question open.
                    closing = asyncio.ensure_future(session.close())
            await closing
    resolved = [(e.decision, e.reason) for e in events if isinstance(e, vt.ApprovalResolved)]
    assert resolved == [("deny", INTERRUPTED_APPROVAL)]
    assert [e.kind for e in events if isinstance(e, vt.TurnFailed)] == ["interrupted"]
    assert not (tmp_path / "marker.txt").exists()


async def test_sigterm_to_vtcode_acp_with_a_permission_request_unanswered_ends_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [_touch()]) as server:
        async with acp_agent(vtcode, tmp_path, server, EditorClient(choice=None)) as agent:
            session_id = await agent.start()
            prompt = asyncio.ensure_future(
                agent.conn.prompt(session_id=session_id, prompt=[text_block(PROMPT)])
            )
            await agent.client.wait_for(lambda: bool(agent.client.permissions))
            agent.process.send_signal(signal.SIGTERM)
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await agent.process.wait()
            prompt.cancel()
            await asyncio.gather(prompt, return_exceptions=True)
    assert len(agent.client.permissions) == 1
    assert not (tmp_path / "marker.txt").exists()
