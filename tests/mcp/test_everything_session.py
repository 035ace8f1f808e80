"""The reference server's richer results in a session: resource links, embedded resources, an image."""

from __future__ import annotations

from pathlib import Path

from tests.mcp.everything import everything_command
from tests.mcp.helpers import call, mcp_options, tool_results
from tests.runtime.session_helpers import Reader
from vtcode.config.schema import McpServerSettings
from vtcode.protocol.events import TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


async def test_resource_links_embedded_resources_and_images_reach_the_model(tmp_path: Path) -> None:
    node, entry = everything_command()
    everything = McpServerSettings(command=node, args=(entry, "stdio"))
    script = [
        Reply(
            tool_calls=(
                call("mcp__everything__get-resource-links", {"count": 2}, "c1"),
                call(
                    "mcp__everything__get-resource-reference", {"resourceType": "Text", "resourceId": 1}, "c2"
                ),
                call("mcp__everything__get-tiny-image", {}, "c3"),
            )
        ),
        Reply(text="ok"),
    ]
    ws = tmp_path / "ws"
    ws.mkdir()
    with server_for("chat", script) as server:
        session = await Session.open(mcp_options(ws, tmp_path, server, {"everything": everything}))
        reader = Reader(session)
        await session.submit(UserInput("show me"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    results = tool_results(bodies[1])
    assert results["c1"].count("[resource link: ") == 2
    assert "[resource <" in results["c2"]
    assert "[image: image/png," in results["c3"]
    assert bodies[1]["messages"][-1]["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
