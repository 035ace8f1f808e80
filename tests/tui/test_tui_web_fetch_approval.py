"""Domain approval of web_fetch in the TUI: asked once per domain, remembered for the session.

The whole app runs on a thread with its own network namespace (`vtcode.testing.web_netns`), where two
public-looking addresses serve pages and the model server listens on that namespace's loopback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.tui.tui_helpers import running_app_on, screen_text, tui_options, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.web_netns import Route, WebServer, network_namespace_problem, run_in_network_namespace
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.approval import ApprovalScreen

DOCS = "93.184.216.34"
OTHER = "93.184.216.35"
_PROBLEM = network_namespace_problem()


def _fetch(url: str, call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("web_fetch", json.dumps({"url": url}), id=call_id),))


async def _armed_for(pilot: Pilot[Any], app: VtcodeApp, host: str) -> None:
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, ApprovalScreen) and app.screen.armed and host in app.screen.request.display
        ),
        f"the approval for {host}",
    )


@pytest.mark.skipif(_PROBLEM is not None, reason=_PROBLEM or "")
def test_a_domain_is_asked_about_once_and_remembered_for_the_session(tmp_path: Path) -> None:
    docs = WebServer({"/a": Route(b"<h1>Page A</h1>"), "/b": Route(b"<h1>Page B</h1>")})
    other = WebServer({"/c": Route(b"<h1>Page C</h1>")})
    script = [
        _fetch(f"http://{DOCS}/a", "w1"),
        _fetch(f"http://{DOCS}/b", "w2"),
        _fetch(f"http://{OTHER}/c", "w3"),
        Reply(text="read them all"),
    ]
    asked: list[str] = []

    async def main() -> list[dict[str, Any]]:
        await docs.start(DOCS, 80)
        await other.start(OTHER, 80)
        try:
            with server_for("chat", script) as server:
                asking = tui_options(tmp_path, tmp_path, server, approval="ask")
                async with running_app_on(asking, size=(100, 30)) as (app, pilot):
                    await type_text(pilot, "read the docs")
                    await pilot.press("enter")
                    await _armed_for(pilot, app, DOCS)
                    assert isinstance(app.screen, ApprovalScreen)
                    asked.append(app.screen.request.display)
                    keys = app.screen.query_one("#approval-keys", Static).render()
                    assert f"allow fetches from {DOCS} for this session" in str(keys)
                    await pilot.press("ctrl+a")
                    # /b needs no answer: the next dialog is for the other domain.
                    await _armed_for(pilot, app, OTHER)
                    assert isinstance(app.screen, ApprovalScreen)
                    asked.append(app.screen.request.display)
                    await pilot.press("escape")
                    await until(pilot, lambda: "read them all" in screen_text(app), "the answer")
                return [r.json() for r in server.requests]
        finally:
            await docs.close()
            await other.close()

    bodies = run_in_network_namespace([DOCS, OTHER], main)
    assert asked == [f"http://{DOCS}/a", f"http://{OTHER}/c"]
    assert docs.paths == ["/a", "/b"]
    assert other.connections == 0
    results = [m["content"] for m in bodies[-1]["messages"] if m["role"] == "tool"]
    assert "# Page A" in results[0]
    assert "# Page B" in results[1]
    assert results[2] == "ERROR: not run: the user declined this call; do not retry it unchanged"
