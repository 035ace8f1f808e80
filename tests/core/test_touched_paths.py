"""Paths recovered from a stored history's tool calls."""

from __future__ import annotations

import json

from vtcode.core.touched_paths import touched_paths
from vtcode.protocol.messages import AssistantMessage, Message, ToolCall, UserMessage


def _calls(*calls: tuple[str, dict[str, object]]) -> AssistantMessage:
    return AssistantMessage(
        tool_calls=tuple(ToolCall(f"c{i}", n, json.dumps(a)) for i, (n, a) in enumerate(calls))
    )


def test_paths_from_arguments_and_patches_most_recent_first() -> None:
    patch = "*** Begin Patch\n*** Update File: src/a.py\n*** Move to: src/b.py\n@@\n-x\n+y\n*** End Patch\n"
    history: list[Message] = [
        UserMessage("go"),
        _calls(("read_file", {"path": "docs/x.md"}), ("list_files", {})),
        _calls(("apply_patch", {"patch": patch}), ("exec_command", {"cmd": "ls", "workdir": "pkg"})),
        _calls(("read_file", {"path": "/ws/docs/x.md"})),
    ]
    assert touched_paths(history, "/ws") == ["docs/x.md", "pkg", "src/b.py", "src/a.py"]


def test_paths_outside_the_workspace_and_garbage_are_ignored() -> None:
    history: list[Message] = [
        _calls(("read_file", {"path": "../secret"}), ("read_file", {"path": "/etc/passwd"})),
        AssistantMessage(tool_calls=(ToolCall("x", "read_file", "{not json"),)),
        _calls(("read_file", {"path": "."})),
    ]
    assert touched_paths(history, "/ws") == ["."]
