"""Python hooks at the turn loop's boundaries see what the runtime does, in order; a failing one is logged."""

from __future__ import annotations

import json
from pathlib import Path

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


@vt.tool(read_only=True)
def echo(text: str) -> str:
    """Echo."""
    return text


async def test_hooks_see_each_request_tool_batch_and_turn_end_in_order(
    tmp_path: Path, transport: TransportName
) -> None:
    seen: list[str] = []

    async def before(view: vt.BeforeRequest) -> None:
        assert view.request is not None
        seen.append(f"request {view.request_no} with {len(view.request.tools)} tools")

    def after(batch: vt.AfterToolBatch) -> None:
        seen.append(f"batch {[r.content for r in batch.results]}")

    def broken(end: vt.TurnEnd) -> None:
        raise RuntimeError("a hook bug")

    def ended(end: vt.TurnEnd) -> None:
        seen.append(f"end {end.final_text} {end.error}")

    hooks = vt.Hooks(pre_model_request=[before], after_tool_batch=[after], turn_end=[broken, ended])
    call = ScriptToolCall("echo", json.dumps({"text": "ping"}), id="c1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="pong")]) as server:
        opts = sdk_options(tmp_path, server, tools=[echo], hooks=hooks, transport=transport)
        async with await vt.Session.open(opts) as s:
            result = await s.run("ping")
        offered = len(server.requests[0].json()["tools"])
    assert seen == [
        f"request 1 with {offered} tools",
        "batch ['ping']",
        f"request 2 with {offered} tools",
        "end pong None",
    ]
    assert result.final_text == "pong"
