"""`/rewind` and `/redo` sent as ACP prompts are answered from the session's checkpoints, not the model."""

from __future__ import annotations

import json
from pathlib import Path

from acp import text_block

from tests.acp.harness import acp_agent
from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"


async def test_rewind_lists_previews_applies_and_redo_puts_back(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    call = ScriptToolCall("apply_patch", json.dumps({"patch": PATCH}), id="p1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="patched")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()

            async def say(text: str) -> str:
                before = len(agent.client.text())
                done = await agent.conn.prompt(session_id=session_id, prompt=[text_block(text)])
                assert done.stop_reason == "end_turn"
                return agent.client.text()[before:]

            await say("edit a")
            assert (tmp_path / "a.py").read_text() == "x = 2\n"
            listed = await say("/rewind")
            assert listed.startswith("turn 1: edit a (1 file(s))\n")
            preview = await say("/rewind 1 code")
            assert preview.startswith("1 to modify, 0 to create, 0 to delete\n  modify a.py\n")
            assert (tmp_path / "a.py").read_text() == "x = 2\n"
            applied = await say("/rewind 1 code yes")
            assert applied == "rewound to before turn 1; restored 1 file(s)"
            assert (tmp_path / "a.py").read_text() == "x = 1\n"
            assert await say("/redo") == "redone; restored 1 file(s)"
            assert (tmp_path / "a.py").read_text() == "x = 2\n"
            assert "not a turn number" in await say("/rewind x")
        assert len(server.requests) == 2, "the commands never reached the model"
