"""Adding a tool is one class and one registration: the dispatcher, approvals, items and touched-path
tracking all read what the tool says about itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.runtime.session_helpers import Reader, options
from vtcode.protocol.events import ItemCompleted, ToolCallItem, TurnCompleted
from vtcode.protocol.messages import ToolResultMessage
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome, path_call


class WordCountTool:
    """A test-only tool: counts the words of a workspace file."""

    @property
    def spec(self) -> ToolSpec:
        """Its schema."""
        return ToolSpec(
            name="word_count",
            description="Count the words of a file.",
            parameters={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        )

    @property
    def kind(self) -> ToolKind:
        """It only reads."""
        return "read"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The file it counts."""
        return path_call(arguments, "path")

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Count."""
        text = (ctx.workspace / arguments["path"]).read_text()
        return ToolOutcome(content=str(len(text.split())), touched_paths=(arguments["path"],))


class StampTool(WordCountTool):
    """A test-only tool that edits (so approvals treat it as an edit)."""

    @property
    def spec(self) -> ToolSpec:
        """Its schema."""
        return ToolSpec(name="stamp", description="Stamp a file.", parameters={"type": "object"})

    @property
    def kind(self) -> ToolKind:
        """It edits."""
        return "edit"


async def test_a_new_tool_needs_only_its_class_and_one_registration(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("three little words\n")
    calls = (
        ScriptToolCall("word_count", json.dumps({"path": "notes.txt"}), id="c1"),
        ScriptToolCall("stamp", json.dumps({"path": "notes.txt"}), id="c2"),
    )
    with server_for("chat", [Reply(tool_calls=calls), Reply(text="done")]) as server:
        opts = options(
            tmp_path, tmp_path, server, approval="read-only", extra_tools=[WordCountTool(), StampTool()]
        )
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("count"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        offered = [t["function"]["name"] for t in server.requests[0].json()["tools"]]
    assert offered[-2:] == ["word_count", "stamp"]
    results = {m.call_id: m for m in session.messages if isinstance(m, ToolResultMessage)}
    assert (results["c1"].content, results["c1"].meta.paths) == ("3", ("notes.txt",))
    # Its kind decides approvals: an edit in read-only mode is refused, a read is not.
    assert results["c2"].is_error
    assert "read-only" in results["c2"].content
    items = [e.item for e in reader.of(ItemCompleted) if isinstance(e.item, ToolCallItem)]
    assert [(i.name, i.status) for i in items] == [("word_count", "completed")]
