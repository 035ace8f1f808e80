"""Older identical file reads reach the summarizer as a placeholder; other reads are untouched."""

from __future__ import annotations

import json

from vtcode.core.compaction.dedup import dedup_reads, placeholder
from vtcode.protocol.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage


def _read(call_id: str, args: dict[str, object], content: str, is_error: bool = False) -> list[Message]:
    call = ToolCall(call_id, "read_file", json.dumps(args))
    return [
        AssistantMessage(tool_calls=(call,)),
        ToolResultMessage(call_id=call_id, name="read_file", content=content, is_error=is_error),
    ]


def test_only_the_newest_identical_read_is_kept() -> None:
    prefix: list[Message] = [
        UserMessage("look"),
        *_read("r1", {"path": "src/a.py"}, "old a"),
        *_read("r2", {"path": "src/a.py", "offset": 50}, "a from 50"),
        *_read("r3", {"path": "./src/a.py", "offset": 1}, "new a"),
        *_read("r4", {"path": "src/b.py"}, "missing", is_error=True),
        *_read("r5", {"path": "src/b.py"}, "b"),
        AssistantMessage(tool_calls=(ToolCall("r6", "read_file", "[1, 2]"),)),
        ToolResultMessage(call_id="r6", name="read_file", content="odd arguments"),
    ]
    out = dedup_reads(prefix)
    contents = [m.content for m in out if isinstance(m, ToolResultMessage)]
    assert contents == [
        placeholder(("src/a.py", 1, None)),
        "a from 50",
        "new a",
        "missing",
        "b",
        "odd arguments",
    ]
    assert json.loads(contents[0])["deduped_read"] is True


def test_a_read_in_the_tail_makes_the_prefix_copy_a_placeholder() -> None:
    prefix = _read("r1", {"path": "x.py"}, "old")
    tail: list[Message] = [UserMessage("again"), *_read("r2", {"path": "x.py"}, "new")]
    assert dedup_reads(prefix, tail)[1] == ToolResultMessage(
        call_id="r1", name="read_file", content=placeholder(("x.py", 1, None))
    )
