"""`vtcode.sdk.testing.ScriptedModel` lets a program test its agent offline: no server, no provider key."""

from __future__ import annotations

import json
from pathlib import Path

import vtcode.sdk as vt
from vtcode.protocol.messages import ToolResultMessage
from vtcode.sdk.testing import Reply, ScriptedModel, ScriptToolCall
from vtcode.sdk.transport import TransportName


@vt.tool
def lookup(key: str) -> str:
    """Look a key up."""
    return {"a": "alpha"}.get(key, "unknown")


async def test_a_session_runs_on_a_scripted_model_without_any_provider(
    tmp_path: Path, transport: TransportName
) -> None:
    model = ScriptedModel(
        [
            Reply(tool_calls=(ScriptToolCall("lookup", json.dumps({"key": "a"}), id="c1"),)),
            Reply(text="alpha it is"),
        ]
    )
    options = vt.Options(
        workspace=tmp_path, tools=[lookup], model_client=model, approval="auto-edit", transport=transport
    )
    async with await vt.Session.open(options) as session:
        result = await session.run("what is a?")
    assert result.final_text == "alpha it is"
    assert [t.name for t in model.requests[0].tools][-1] == "lookup"
    results = [m for m in model.requests[1].messages if isinstance(m, ToolResultMessage)]
    assert [(r.call_id, r.content) for r in results] == [("c1", "alpha")]
