"""OpenAI's standalone compaction endpoint (`POST /v1/responses/compact`): request body and output parsing.

The endpoint takes a conversation and returns a shorter one: messages, calls and their outputs, and an
opaque `compaction` item (encrypted) that stands for what was dropped. Reference section 5.3: messages
become messages, calls and outputs become calls and results, and anything else, the compaction item
included, is kept as an empty assistant message carrying the raw item, so it is sent back as it came.
"""

from __future__ import annotations

from typing import Any

import msgspec

from vtcode.protocol.errors import ProviderError, ProviderErrorKind
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    Reasoning,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from vtcode.protocol.model import ModelRequest
from vtcode.providers.openai_responses_request import ERROR_PREFIX, input_items, tool_item
from vtcode.providers.openai_responses_stream import reported_usage

COMPACT_PATH = "responses/compact"
JsonObject = dict[str, Any]


def encode_compact_body(request: ModelRequest) -> bytes:
    """The body of a compaction request: the same instructions, input and tools as a normal one."""
    body: JsonObject = {
        "model": request.model,
        "instructions": request.system.static,
        "input": input_items(request.system.appendix, request.messages),
    }
    if request.tools:
        body["tools"] = [tool_item(tool) for tool in request.tools]
    return msgspec.json.encode(body)


def compact_usage(data: bytes) -> Usage | None:
    """What a compaction call used, as its reply reports it (None when it does not)."""
    return reported_usage(data)


def parse_compact_output(data: bytes, provider: str = "openai") -> list[Message]:
    """The messages of a compaction reply's `output`; a reply that is not JSON with a list is an error."""
    try:
        payload = msgspec.json.decode(data)
    except msgspec.DecodeError as error:
        raise _invalid(provider, f"the compaction reply is not JSON: {error}") from error
    output = payload.get("output") if isinstance(payload, dict) else None
    if not isinstance(output, list):
        raise _invalid(provider, "the compaction reply has no `output` list")
    messages: list[Message] = []
    names: dict[str, str] = {}
    for item in output:
        if isinstance(item, dict):
            message = _message(item)
            if isinstance(message, AssistantMessage):
                names.update((call.id, call.name) for call in message.tool_calls)
            elif isinstance(message, ToolResultMessage):
                # The output item does not repeat the tool's name; its call does.
                message = msgspec.structs.replace(message, name=names.get(message.call_id, ""))
            messages.append(message)
    return messages


def _message(item: JsonObject) -> Message:
    kind = item.get("type")
    if kind == "message":
        text = "".join(
            str(part.get("text", ""))
            for part in item.get("content") or []
            if isinstance(part, dict) and part.get("type") in ("input_text", "output_text", "text")
        )
        role = item.get("role")
        if role == "user":
            return UserMessage(text)
        if role in ("system", "developer"):
            return SystemMessage(text)
        return AssistantMessage(content=text)
    if kind == "function_call":
        call = ToolCall(
            id=str(item.get("call_id", "")),
            name=str(item.get("name", "")),
            arguments=str(item.get("arguments", "{}")),
            item_id=None,
        )
        return AssistantMessage(tool_calls=(call,))
    if kind == "function_call_output":
        output = str(item.get("output", ""))
        failed = output.startswith(ERROR_PREFIX)
        return ToolResultMessage(
            call_id=str(item.get("call_id", "")),
            name="",
            content=output.removeprefix(ERROR_PREFIX) if failed else output,
            is_error=failed,
        )
    # Opaque: a `compaction` item (or anything newer), replayed untouched.
    opaque = Reasoning(
        item_id=item.get("id") if isinstance(item.get("id"), str) else None,
        encrypted_content=str(item.get("encrypted_content", "")),
        compaction=True,
    )
    return AssistantMessage(reasoning=(opaque,))


def _invalid(provider: str, message: str) -> ProviderError:
    return ProviderError(ProviderErrorKind.INVALID_RESPONSE, message, provider=provider)
