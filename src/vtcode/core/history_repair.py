"""Repair of a stored history whose last tool calls never got results (a crash mid-command)."""

from __future__ import annotations

from collections.abc import Sequence

from vtcode.protocol.messages import AssistantMessage, Message, ToolResultMessage

CRASHED = "not finished: vtcode stopped (crash or kill) before this call returned; its effects are unknown"


def missing_results(messages: Sequence[Message]) -> list[ToolResultMessage]:
    """Error results for tool calls of the last assistant message that have none.

    Every provider rejects a request whose history holds a tool call without its result, so a session
    killed while a command ran could otherwise never be resumed.
    """
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, AssistantMessage):
            answered = {m.call_id for m in messages[index + 1 :] if isinstance(m, ToolResultMessage)}
            return [
                ToolResultMessage(call_id=call.id, name=call.name, content=CRASHED, is_error=True)
                for call in message.tool_calls
                if call.id not in answered
            ]
    return []
