"""A client that runs hooks or the model itself (`_meta.vtcode.hooks` / `model`) is asked over the wire;
a malformed answer fails closed (the guarded call does not run) or fails the turn, never the server."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from acp import text_block
from acp.schema import ClientCapabilities, Implementation

from tests.acp.harness import acp_agent
from tests.acp.test_acp_vtcode_extensions import ExtensionClient
from tests.conftest import VtcodeRunner
from vtcode.protocol.events import Event, TurnFailed
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


@dataclass
class CallbackClient(ExtensionClient):
    """Answers `_vtcode/hook` and `_vtcode/model` with `answer` and records what it was asked."""

    answer: dict[str, Any] = field(default_factory=dict)
    asked: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Record the request; answer it with `answer` whatever it is."""
        self.asked.append((method, params))
        return self.answer


async def _open(agent: Any, tmp_path: Path, setup: dict[str, Any]) -> str:
    await agent.conn.initialize(
        protocol_version=1,
        client_capabilities=ClientCapabilities(field_meta={"vtcode": {"events": True}}),
        client_info=Implementation(name="program", version="1"),
    )
    opened = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[], vtcode=setup)
    return str(opened.session_id)


async def test_a_malformed_pre_tool_answer_blocks_the_call_and_the_model_reads_why(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    client = CallbackClient(answer={"result": "allow it, whatever"})
    hook = {"id": 0, "event": "PreToolUse", "name": "pre_tool `guard`", "onFailure": "block"}
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "echo ran > ran.txt"}), id="c1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="blocked, fine")]) as server:
        async with acp_agent(vtcode, tmp_path, server, client, extra=["--approval", "full-auto"]) as agent:
            session_id = await _open(agent, tmp_path, {"hooks": [hook]})
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("go")])
        sent = json.dumps(server.requests[1].json()["messages"])
    assert done.stop_reason == "end_turn"
    assert not (tmp_path / "ran.txt").exists()
    ((method, params),) = client.asked
    assert method == "vtcode/hook"
    assert (params["sessionId"], params["hookId"]) == (session_id, 0)
    assert params["payload"]["tool_input"]["command"] == "echo ran > ran.txt"
    assert "the pre_tool `guard` hook failed, so the call is blocked" in sent
    assert "malformed" in sent


async def test_a_malformed_model_answer_fails_the_turn_as_a_network_error(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    client = CallbackClient(answer={"events": [{"type": "not_an_event"}], "done": True})
    with server_for("chat", []) as server:
        async with acp_agent(vtcode, tmp_path, server, client) as agent:
            session_id = await _open(agent, tmp_path, {"model": "program"})
            try:
                await agent.conn.prompt(session_id=session_id, prompt=[text_block("hello")])
            except Exception as exc:  # the prompt fails with the turn
                failed_prompt: Exception | None = exc
            else:
                failed_prompt = None
            # The server is still there: the session answers the next request.
            await client.wait_for(lambda: "turn.failed" in client.event_types())
    events = [msgspec.convert(p["event"], Event) for m, p in client.notes if m == "vtcode/event"]
    (failed,) = [e for e in events if isinstance(e, TurnFailed)]
    assert failed.kind == "network"
    assert "the program's model client gave a malformed answer" in failed.message
    assert failed_prompt is not None
    ((method, params),) = client.asked
    assert method == "vtcode/model"
    assert params["request"]["messages"][-1]["content"] == "hello"
    # No model request left the process: the client's model answers them all.
    assert server.requests == []
