"""A running subagent is one line in the transcript with the tool it uses now; it opens for the rest."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import RecordedRequest, Reply, ScriptToolCall, Step
from vtcode.testing.wire import server_for
from vtcode.tui.subagent_card import SubagentCard


async def test_a_running_child_shows_its_current_tool_and_opens_for_its_tools_and_answer(
    tmp_path: Path,
) -> None:
    (tmp_path / "notes.txt").write_text("the loader is in loader.py\n")
    gate = threading.Event()

    def respond(request: RecordedRequest) -> Step:
        users = [m for m in request.json()["messages"] if m["role"] == "user"]
        if any("CHILD-BRIEF" in json.dumps(m) for m in users):
            gate.wait(30)
            return Reply(text="found it in loader.py")
        return Reply(text="all done")

    arguments = {"subagent_type": "explore", "description": "find the loader", "prompt": "CHILD-BRIEF"}
    script: list[Step] = [
        Reply(tool_calls=(ScriptToolCall("task", json.dumps(arguments), id="t1"),)),
        Reply(tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "notes.txt"}), id="r1"),)),
    ]
    with server_for("chat", script) as server:
        server.responder = respond
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "delegate")
            await pilot.press("enter")
            await until(pilot, lambda: "… read_file" in screen_text(app), "the child's current tool")
            assert "▸ subagent explore: find the loader  … read_file" in screen_text(app)
            gate.set()
            await until(pilot, lambda: "all done" in screen_text(app), "the answer")
            card = app.transcript.query_one(SubagentCard)
            assert "(completed: 1 tool calls" in str(card.render())
            assert "found it in loader.py" not in screen_text(app)
            card.focus()
            await pilot.press("enter")
            await until(pilot, lambda: "found it in loader.py" in screen_text(app), "the open card")
            assert "    • read_file" in screen_text(app)
