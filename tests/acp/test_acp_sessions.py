"""ACP sessions are vtcode sessions: `session/load` replays a stored one, modes are approval modes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from acp import RequestError, text_block
from acp.schema import AgentMessageChunk, McpServerStdio, TextContentBlock, ToolCallStart, UserMessageChunk

from tests.acp.harness import EditorClient, acp_agent
from tests.conftest import VtcodeRunner
from tests.mcp.helpers import DEMO_SERVER, tool_names, tool_results
from vtcode.testing.script import HttpError, Reply, ScriptToolCall
from vtcode.testing.wire import server_for

TOUCH = Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": "touch ran.txt"}), id="c1"),))


async def test_loading_a_stored_session_replays_its_history_and_continues_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("stored notes\n")
    read = Reply(tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "notes.txt"}), id="r1"),))
    with server_for("chat", [read, Reply(text="the first answer")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            await agent.conn.prompt(session_id=session_id, prompt=[text_block("the first question")])
    with server_for("chat", [Reply(text="the second answer")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            await agent.conn.initialize(protocol_version=1)
            await agent.conn.load_session(cwd=str(tmp_path), session_id=session_id, mcp_servers=[])
            replayed = list(agent.client.updates)
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("the second question")])
            assert done.stop_reason == "end_turn"
        sent = json.dumps(server.requests[0].json()["messages"])
    said = [u.content.text for u in replayed if isinstance(u, UserMessageChunk)]
    assert said == ["the first question"]
    answered = [u.content.text for u in replayed if isinstance(u, AgentMessageChunk)]
    assert answered == ["the first answer"]
    calls = [u for u in replayed if isinstance(u, ToolCallStart)]
    assert [(c.kind, c.title) for c in calls] == [("read", "read_file notes.txt")]
    assert all(isinstance(u.content, TextContentBlock) for u in replayed if isinstance(u, UserMessageChunk))
    assert "the first question" in sent
    assert "stored notes" in sent
    assert "the second question" in sent


async def test_loading_an_unknown_session_is_an_error_and_the_agent_goes_on(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [Reply(text="fine")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            await agent.conn.initialize(protocol_version=1)
            with pytest.raises(RequestError):
                await agent.conn.load_session(cwd=str(tmp_path), session_id="no-such-session", mcp_servers=[])
            session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[])
            done = await agent.conn.prompt(session_id=session.session_id, prompt=[text_block("hi")])
            assert done.stop_reason == "end_turn"


async def test_switching_to_the_full_auto_mode_runs_commands_without_asking(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [TOUCH, Reply(text="done")]) as server:
        async with acp_agent(vtcode, tmp_path, server, EditorClient(choice="reject")) as agent:
            session_id = await agent.start()
            await agent.conn.set_session_mode(session_id=session_id, mode_id="full-auto")
            with pytest.raises(RequestError):
                await agent.conn.set_session_mode(session_id=session_id, mode_id="yolo")
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("touch it")])
            assert done.stop_reason == "end_turn"
            assert agent.client.permissions == []
    assert (tmp_path / "ran.txt").exists()


async def test_an_mcp_server_the_editor_passes_is_started_and_its_tools_are_offered(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    echo = Reply(
        tool_calls=(
            ScriptToolCall("mcp__editor_demo__echo", json.dumps({"text": "from the editor"}), id="m1"),
        )
    )
    demo = McpServerStdio(name="editor_demo", command=sys.executable, args=[str(DEMO_SERVER)], env=[])
    with server_for("chat", [echo, Reply(text="echoed")]) as server:
        async with acp_agent(
            vtcode, tmp_path, server, extra=("--approval", "full-auto", "-c", "mcp.startup_grace_seconds=30")
        ) as agent:
            await agent.conn.initialize(protocol_version=1)
            session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[demo])
            done = await agent.conn.prompt(session_id=session.session_id, prompt=[text_block("echo")])
            assert done.stop_reason == "end_turn"
        first = server.requests[0].json()
        last = server.requests[-1].json()
    assert "mcp__editor_demo__echo" in tool_names(first)
    assert tool_results(last)["m1"] == "from the editor"


async def test_a_loaded_session_answers_its_unanswered_prompt_before_the_new_one(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [HttpError(400, "refused")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            with pytest.raises(RequestError):
                await agent.conn.prompt(session_id=session_id, prompt=[text_block("the first question")])
    slow = Reply(text="the first answer " * 10, chunk_size=4, delay_between=0.02)
    with server_for("chat", [slow, Reply(text="the second answer")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            await agent.conn.initialize(protocol_version=1)
            await agent.conn.load_session(cwd=str(tmp_path), session_id=session_id, mcp_servers=[])
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("the second question")])
            answered = "".join(
                u.content.text for u in agent.client.updates if isinstance(u, AgentMessageChunk)
            )
        bodies = [r.json()["messages"] for r in server.requests]
    assert done.stop_reason == "end_turn"
    # The prompt's answer came after the resumed one, each from its own request.
    assert answered.endswith("the first answer the second answer")
    assert [m["content"] for m in bodies[0] if m["role"] == "user"][-1] == "the first question"
    assert [m["content"] for m in bodies[1] if m["role"] == "user"][-1] == "the second question"
