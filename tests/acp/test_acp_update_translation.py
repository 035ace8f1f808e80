"""vtcode events as ACP session updates (the pure translation the server sends)."""

from __future__ import annotations

from acp.schema import (
    AgentMessageChunk,
    AgentThoughtChunk,
    ContentToolCallContent,
    ToolCallProgress,
    ToolCallStart,
)

from vtcode.acp.updates import Translator
from vtcode.protocol.events import (
    AgentMessageItem,
    CommandExecutionItem,
    ItemCompleted,
    ItemDelta,
    ItemStarted,
    ItemUpdated,
    ReasoningItem,
    ToolCallItem,
)


def test_streamed_text_and_reasoning_are_chunks_and_not_repeated_when_the_item_completes() -> None:
    translate = Translator("/ws")
    text = translate.updates(ItemDelta(item_id="m1", kind="text", delta="Hel"))
    thought = translate.updates(ItemDelta(item_id="r1", kind="reasoning", delta="hmm"))
    assert isinstance(text[0], AgentMessageChunk)
    assert isinstance(thought[0], AgentThoughtChunk)
    assert translate.updates(ItemCompleted(item=AgentMessageItem(id="m1", text="Hello"))) == []
    assert translate.updates(ItemCompleted(item=ReasoningItem(id="r1", text="hmm"))) == []


def test_an_answer_that_did_not_stream_is_sent_once_whole() -> None:
    (update,) = Translator("/ws").updates(ItemCompleted(item=AgentMessageItem(id="m2", text="all at once")))
    assert isinstance(update, AgentMessageChunk)
    assert update.content.text == "all at once"


def test_a_command_shows_its_live_output_then_its_end() -> None:
    translate = Translator("/ws")
    (start,) = translate.updates(ItemStarted(item=CommandExecutionItem(id="c1", command="make test")))
    assert isinstance(start, ToolCallStart)
    assert (start.kind, start.title, start.status) == ("execute", "make test", "in_progress")
    (live,) = translate.updates(
        ItemUpdated(
            item=CommandExecutionItem(id="c1", command="make test", aggregated_output="running 3 tests")
        )
    )
    assert isinstance(live, ToolCallProgress)
    assert live.status == "in_progress"
    assert isinstance((live.content or [])[0], ContentToolCallContent)
    (end,) = translate.updates(
        ItemCompleted(
            item=CommandExecutionItem(
                id="c1", command="make test", status="failed", aggregated_output="1 failed", exit_code=1
            )
        )
    )
    assert isinstance(end, ToolCallProgress)
    assert end.status == "failed"
    assert end.raw_output == {"exit_code": 1}


def test_a_declined_call_ends_failed_with_the_reason_shown() -> None:
    item = ToolCallItem(
        id="t1", name="mcp__tracker__close", arguments="{}", status="declined", result="denied"
    )
    (end,) = Translator("/ws").updates(ItemCompleted(item=item))
    assert isinstance(end, ToolCallProgress)
    assert end.status == "failed"
    assert "denied" in str(end.content)


def test_tool_kinds_titles_and_locations_follow_the_tool_and_its_path() -> None:
    translate = Translator("/ws")
    read = ToolCallItem(id="t2", name="read_file", arguments='{"path": "src/a.py"}')
    (start,) = translate.updates(ItemStarted(item=read))
    assert isinstance(start, ToolCallStart)
    assert (start.kind, start.title) == ("read", "read_file src/a.py")
    assert [loc.path for loc in start.locations or []] == ["/ws/src/a.py"]
    grep = ToolCallItem(id="t3", name="grep_files", arguments='{"pattern": "TODO"}')
    (start,) = translate.updates(ItemStarted(item=grep))
    assert isinstance(start, ToolCallStart)
    assert (start.kind, start.title, start.locations) == ("search", "grep_files TODO", None)
    other = ToolCallItem(id="t4", name="mcp__x__y", arguments="not json")
    (start,) = translate.updates(ItemStarted(item=other))
    assert isinstance(start, ToolCallStart)
    assert (start.kind, start.title) == ("other", "mcp__x__y")
