"""Closing tool calls a crash left without results."""

from __future__ import annotations

from vtcode.core.history_repair import CRASHED, missing_results
from vtcode.protocol.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage


def test_unanswered_calls_of_the_last_assistant_message_get_error_results() -> None:
    calls = (ToolCall("a", "read_file", "{}"), ToolCall("b", "exec_command", "{}"))
    history: list[Message] = [
        UserMessage("go"),
        AssistantMessage(tool_calls=calls),
        ToolResultMessage(call_id="a", name="read_file", content="ok"),
    ]
    assert missing_results(history) == [
        ToolResultMessage(call_id="b", name="exec_command", content=CRASHED, is_error=True)
    ]


def test_complete_histories_need_nothing() -> None:
    assert missing_results([]) == []
    assert missing_results([UserMessage("go"), AssistantMessage(content="done")]) == []
    answered: list[Message] = [
        AssistantMessage(tool_calls=(ToolCall("a", "x", "{}"),)),
        ToolResultMessage(call_id="a", name="x", content="ok"),
        UserMessage("next"),
    ]
    assert missing_results(answered) == []
