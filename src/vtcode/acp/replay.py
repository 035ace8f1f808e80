"""A stored session's history as the updates an editor shows (`session/load`)."""

from __future__ import annotations

from collections.abc import Sequence

from acp.schema import TextContentBlock, UserMessageChunk

from vtcode.acp.updates import (
    Update,
    text_chunk,
    thought_chunk,
    tool_call_progress,
    tool_call_start,
)
from vtcode.protocol.events import ToolCallItem
from vtcode.protocol.messages import AssistantMessage, Message, ToolResultMessage, UserMessage

Replayed = Update | UserMessageChunk


def replay(messages: Sequence[Message], workspace: str) -> list[Replayed]:
    """User text, answers, reasoning and every tool call with its result, in history order."""
    results = {m.call_id: m for m in messages if isinstance(m, ToolResultMessage)}
    updates: list[Replayed] = []
    for message in messages:
        match message:
            case UserMessage(content=content, meta=meta) if meta.kind != "context" and content:
                updates.append(
                    UserMessageChunk(
                        session_update="user_message_chunk",
                        content=TextContentBlock(type="text", text=content),
                    )
                )
            case AssistantMessage(content=content, reasoning=reasoning, tool_calls=calls):
                updates += [thought_chunk(r.text) for r in reasoning if r.text]
                if content:
                    updates.append(text_chunk(content))
                for call in calls:
                    result = results.get(call.id)
                    item = ToolCallItem(
                        id=call.id,
                        name=call.name,
                        arguments=call.arguments,
                        status="failed" if result is None or result.is_error else "completed",
                        result=result.content if result is not None else None,
                    )
                    updates.append(tool_call_start(item, workspace))
                    updates.append(tool_call_progress(item, workspace, final=True))
    return updates
