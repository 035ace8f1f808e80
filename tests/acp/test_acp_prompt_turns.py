"""Editors drive vtcode over ACP: handshake, streamed answers, cancellation, through a real process."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import psutil
import pytest
from acp import RequestError, text_block

from tests.acp.harness import acp_agent
from tests.conftest import VtcodeRunner
from vtcode.testing.script import HttpError, Reply, ScriptToolCall
from vtcode.testing.wire import server_for

ANSWER = "Hello from the loopback model, streamed in small pieces."


async def test_initialize_then_a_prompt_streams_its_answer_as_chunks_and_ends_the_turn(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [Reply(text=ANSWER, chunk_size=5)]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            hello = await agent.conn.initialize(protocol_version=1)
            assert hello.protocol_version == 1
            assert hello.agent_info is not None
            assert hello.agent_info.name == "vtcode"
            assert hello.agent_capabilities is not None
            assert hello.agent_capabilities.load_session
            session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[])
            assert session.modes is not None
            assert session.modes.current_mode_id == "auto-edit"
            done = await agent.conn.prompt(session_id=session.session_id, prompt=[text_block("say hello")])
            assert done.stop_reason == "end_turn"
            assert agent.client.text() == ANSWER
            assert len(agent.client.chunks()) > 1
            assert done.usage is not None
            assert (done.usage.input_tokens, done.usage.output_tokens) == (10, 5)
        sent = server.requests[0].json()
    assert "say hello" in json.dumps(sent["messages"])


async def test_a_failed_turn_is_an_error_answer_and_the_session_goes_on(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [HttpError(401, "bad key"), Reply(text="fine now")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            with pytest.raises(RequestError) as failed:
                await agent.conn.prompt(session_id=session_id, prompt=[text_block("hi")])
            assert "401" in str(failed.value) or "key" in str(failed.value).lower()
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("again")])
            assert done.stop_reason == "end_turn"


async def test_a_newer_client_gets_protocol_version_1(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            hello = await agent.conn.initialize(protocol_version=2)
            assert hello.protocol_version == 1


async def test_cancel_mid_stream_ends_the_prompt_cancelled_and_the_session_goes_on(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    slow = Reply(text="word " * 400, chunk_size=5, delay_between=0.05)
    with server_for("chat", [slow, Reply(text="second answer")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            prompt = asyncio.ensure_future(
                agent.conn.prompt(session_id=session_id, prompt=[text_block("talk a lot")])
            )
            await agent.client.wait_for(lambda: len(agent.client.chunks()) >= 3)
            await agent.conn.cancel(session_id=session_id)
            done = await prompt
            assert done.stop_reason == "cancelled"
            assert len(agent.client.text()) < len(slow.text)
            again = await agent.conn.prompt(session_id=session_id, prompt=[text_block("and now?")])
            assert again.stop_reason == "end_turn"
            assert agent.client.text().endswith("second answer")


async def test_cancel_during_a_command_ends_the_prompt_cancelled_and_leaves_no_process(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    run = ScriptToolCall(
        "exec_command", json.dumps({"cmd": "echo started; sleep 60", "yield_time_ms": 30000}), id="c1"
    )
    with server_for("chat", [Reply(tool_calls=(run,)), Reply(text="unused")]) as server:
        async with acp_agent(vtcode, tmp_path, server, extra=("--approval", "full-auto")) as agent:
            session_id = await agent.start()
            prompt = asyncio.ensure_future(
                agent.conn.prompt(session_id=session_id, prompt=[text_block("run")])
            )

            def output_shown() -> bool:
                return any(
                    "started" in json.dumps(u.model_dump(mode="json"))
                    for u in agent.client.tool_updates()[1:]
                )

            await agent.client.wait_for(output_shown)
            sleeping = _commands(psutil.Process(agent.process.pid), "sleep")
            assert sleeping
            await agent.conn.cancel(session_id=session_id)
            done = await prompt
            assert done.stop_reason == "cancelled"
            # The command's whole group ended before the prompt was answered.
            assert not [p for p in sleeping if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        assert agent.process.returncode == 0


def _commands(parent: psutil.Process, word: str) -> list[psutil.Process]:
    """Descendants of `parent` whose command line mentions `word`."""
    return [p for p in parent.children(recursive=True) if word in " ".join(p.cmdline())]
