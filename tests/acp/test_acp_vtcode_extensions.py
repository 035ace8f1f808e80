"""vtcode's ACP extensions: typed events for a client that asks for them, `_vtcode/op`, editors untouched."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest
from acp import RequestError, text_block
from acp.schema import ClientCapabilities, Implementation

from tests.acp.harness import EditorClient, acp_agent
from tests.conftest import VtcodeRunner
from vtcode.protocol.events import Event
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


@dataclass
class ExtensionClient(EditorClient):
    """An editor that also records the extension notifications it is sent."""

    notes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        """Record one."""
        self.notes.append((method, params))
        self.changed.set()

    def event_types(self) -> list[str]:
        """The `type` of every typed event received so far."""
        return [p["event"]["type"] for m, p in self.notes if m == "vtcode/event"]


async def test_a_client_asking_for_typed_events_gets_the_exec_json_stream_instead_of_updates(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    client = ExtensionClient()
    with server_for("chat", [Reply(text="typed hello")]) as server:
        async with acp_agent(vtcode, tmp_path, server, client) as agent:
            await agent.conn.initialize(
                protocol_version=1,
                client_capabilities=ClientCapabilities(field_meta={"vtcode": {"events": True}}),
                client_info=Implementation(name="program", version="1"),
            )
            opened = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[])
            done = await agent.conn.prompt(session_id=opened.session_id, prompt=[text_block("hi")])
            prompt_op = {"type": "user_input", "text": "a prompt in disguise"}
            with pytest.raises(RequestError, match="not sent as _vtcode/op"):
                await agent.conn.ext_method("vtcode/op", {"sessionId": opened.session_id, "op": prompt_op})
            with pytest.raises(RequestError, match="Method not found"):
                await agent.conn.ext_method("vtcode/unknown", {})
            # What ACP has no method for: compacting between turns, as `/compact` does.
            await agent.conn.ext_method(
                "vtcode/op", {"sessionId": opened.session_id, "op": {"type": "compact"}}
            )
            # The runtime's compaction answers (one short exchange is all verbatim tail: nothing to do).
            await client.wait_for(lambda: "notice" in client.event_types())
    assert done.stop_reason == "end_turn"
    assert client.updates == []
    events = [msgspec.convert(p["event"], Event) for m, p in client.notes if m == "vtcode/event"]
    assert {p["sessionId"] for _, p in client.notes} == {opened.session_id}
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == "ThreadStarted"
    assert kinds[-2:] == ["TurnCompleted", "Notice"]
    assert "".join(getattr(e, "delta", "") for e in events) == "typed hello"
    notices = [p["event"]["message"] for m, p in client.notes if p["event"]["type"] == "notice"]
    assert notices == ["nothing to compact: the history fits in the verbatim continuity tail"]


async def test_an_editor_that_does_not_ask_gets_updates_and_no_vtcode_events(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    client = ExtensionClient()
    with server_for("chat", [Reply(text="plain hello")]) as server:
        async with acp_agent(vtcode, tmp_path, server, client) as agent:
            session_id = await agent.start()
            await agent.conn.prompt(session_id=session_id, prompt=[text_block("hi")])
    assert client.text() == "plain hello"
    assert client.notes == []
