"""`!cmd` sent as an ACP prompt runs in the user's shell: a tool call with its output, no model request."""

from __future__ import annotations

import json
from pathlib import Path

from acp import text_block
from acp.schema import ToolCallProgress

from tests.acp.harness import acp_agent
from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


async def test_a_shell_command_prompt_runs_without_a_model_request_and_the_next_prompt_carries_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [Reply(text="seen it")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("!echo from-acp")])
            assert done.stop_reason == "end_turn"
            assert server.requests == []
            updates = agent.client.tool_updates()
            last = updates[-1]
            assert isinstance(last, ToolCallProgress)
            assert last.status == "completed"
            assert "from-acp" in json.dumps([c.model_dump(mode="json") for c in last.content or []])
            later = await agent.conn.prompt(session_id=session_id, prompt=[text_block("and?")])
            assert later.stop_reason == "end_turn"
        [request] = server.requests
    assert "$ echo from-acp\\nfrom-acp\\n(exit code 0)" in json.dumps(request.json()["messages"])
