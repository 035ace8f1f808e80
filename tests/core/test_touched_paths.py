"""Paths recovered from the paths recorded on a stored history's messages (never from call arguments)."""

from __future__ import annotations

import json

from vtcode.core.touched_paths import touched_paths
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)


def _result(call_id: str, *paths: str) -> ToolResultMessage:
    return ToolResultMessage(call_id, "read_file", "ok", meta=MessageMeta(paths=paths))


def test_recorded_paths_most_recent_first_each_once() -> None:
    history: list[Message] = [
        UserMessage("go"),
        _result("c0", "docs/x.md"),
        _result("c1", "src/a.py", "src/b.py"),
        _result("c2", "pkg"),
        _result("c3", "/ws/docs/x.md"),
    ]
    assert touched_paths(history, "/ws") == ["docs/x.md", "pkg", "src/b.py", "src/a.py"]


def test_paths_outside_the_workspace_are_ignored() -> None:
    history: list[Message] = [_result("c0", "../secret", "/etc/passwd"), _result("c1", ".")]
    assert touched_paths(history, "/ws") == ["."]


def test_call_arguments_alone_are_not_a_record_of_what_was_touched() -> None:
    # A summarized or refused call leaves no recorded path: arguments are what was asked, not done.
    call = ToolCall("c0", "read_file", json.dumps({"path": "src/a.py"}))
    assert touched_paths([AssistantMessage(tool_calls=(call,))], "/ws") == []


def test_a_summary_message_keeps_the_paths_it_replaced() -> None:
    summary = UserMessage("summary of earlier work", meta=MessageMeta(paths=("lib/z.py",)))
    assert touched_paths([summary, _result("c9", "src/a.py")], "/ws") == ["src/a.py", "lib/z.py"]
