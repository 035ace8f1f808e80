"""The OpenAI Responses request body (`POST /v1/responses`), built from a ModelRequest without any I/O.

Requests are stateless: the whole conversation travels every time with `store: false`, so nothing may
refer to an item the server would have had to keep (no `previous_response_id`, no bare reasoning ids).
"""

from __future__ import annotations

from typing import Any

import msgspec

from vtcode.core.images import NOT_TAKEN, with_image_notes
from vtcode.protocol.messages import (
    AssistantMessage,
    ImagePart,
    Message,
    Reasoning,
    SystemMessage,
    ToolResultMessage,
    UserMessage,
)
from vtcode.protocol.model import ModelRequest, ToolSpec

JsonObject = dict[str, Any]

#: Prefix that marks a failed tool result; function_call_output has no error flag of its own.
ERROR_PREFIX = "ERROR: "


def build_responses_body(request: ModelRequest) -> JsonObject:
    """The JSON body of a streaming Responses request, as a dict in wire key order."""
    body: JsonObject = {
        "model": request.model,
        # Only the static block goes here, so `instructions` stays byte-identical across a session and
        # the provider's prefix cache keeps hitting when the project appendix changes.
        "instructions": request.system.static,
        "input": input_items(request.system.appendix, request.messages, images=request.images),
        "stream": True,
        "store": False,
    }
    if request.tools:
        body["tools"] = [tool_item(tool) for tool in request.tools]
        # Only meaningful next to tools; some compatible servers reject it without them.
        body["parallel_tool_calls"] = True
    if request.max_output_tokens is not None:
        body["max_output_tokens"] = request.max_output_tokens
    if request.reasoning_effort is not None:
        body["reasoning"] = {"effort": request.reasoning_effort, "summary": "auto"}
        # With store=false the only way to hand reasoning back on the next request is encrypted.
        body["include"] = ["reasoning.encrypted_content"]
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if request.cache_key is not None:
        body["prompt_cache_key"] = request.cache_key
    return body


def encode_responses_body(request: ModelRequest) -> bytes:
    """The request body as JSON bytes."""
    return msgspec.json.encode(build_responses_body(request))


def input_items(appendix: str, messages: tuple[Message, ...], *, images: bool = False) -> list[JsonObject]:
    """The `input` array: the appendix as a developer message, then the conversation.

    With `images`, a tool result's images go into its output as `input_image` parts.
    """
    items: list[JsonObject] = []
    if appendix:
        items.append(_text_message("developer", appendix))
    for message in messages:
        match message:
            case UserMessage(content=content, images=parts) if parts and images:
                text = [{"type": "input_text", "text": content}] if content else []
                items.append(
                    {"type": "message", "role": "user", "content": [*text, *(_input_image(i) for i in parts)]}
                )
            case UserMessage(content=content, images=parts):
                items.append(_text_message("user", with_image_notes(content, parts, NOT_TAKEN)))
            case SystemMessage(content=content):
                # Mid-conversation system notes; reasoning models treat `system` as `developer` anyway.
                items.append(_text_message("developer", content))
            case AssistantMessage():
                items.extend(_assistant_items(message))
            case ToolResultMessage(call_id=call_id, content=content, is_error=is_error):
                output: str | list[JsonObject] = ERROR_PREFIX + content if is_error else content
                if images and message.images:
                    output = [
                        {"type": "input_text", "text": output},
                        *(_input_image(i) for i in message.images),
                    ]
                items.append({"type": "function_call_output", "call_id": call_id, "output": output})
    return items


def tool_item(tool: ToolSpec) -> JsonObject:
    """One function tool definition."""
    return {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
        # Strict mode would demand every property be required and additionalProperties false.
        "strict": False,
    }


def _input_image(image: ImagePart) -> JsonObject:
    return {"type": "input_image", "image_url": f"data:{image.mime_type};base64,{image.data}"}


def _text_message(role: str, text: str) -> JsonObject:
    return {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}


def _assistant_items(message: AssistantMessage) -> list[JsonObject]:
    items: list[JsonObject] = []
    dropped_reasoning = False
    for reasoning in message.reasoning:
        if reasoning.compaction:
            if reasoning.encrypted_content is not None:
                items.append(_compaction_item(reasoning))
        elif _returnable(reasoning):
            items.append(_reasoning_item(reasoning))
        elif reasoning.item_id is not None:
            dropped_reasoning = True
    if message.content:
        items.append(
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": message.content}],
            }
        )
    for call in message.tool_calls:
        item: JsonObject = {
            "type": "function_call",
            "call_id": call.id,
            "name": call.name,
            "arguments": call.arguments,
        }
        # An `fc_` id ties the call to the reasoning item that produced it; sending the id without that
        # item is rejected ("provided without its required 'reasoning' item"), so drop both together.
        if call.item_id is not None and not dropped_reasoning:
            item["id"] = call.item_id
        items.append(item)
    return items


def _returnable(reasoning: Reasoning) -> bool:
    # Under store=false a reasoning id without its encrypted content points at nothing and the request
    # fails with "Item with id 'rs_...' not found"; such items (and foreign thinking blocks) stay home.
    return reasoning.item_id is not None and reasoning.encrypted_content is not None


def _reasoning_item(reasoning: Reasoning) -> JsonObject:
    summary = [{"type": "summary_text", "text": reasoning.text}] if reasoning.text else []
    return {
        "type": "reasoning",
        "id": reasoning.item_id,
        "summary": summary,
        "encrypted_content": reasoning.encrypted_content,
    }


def _compaction_item(reasoning: Reasoning) -> JsonObject:
    item: JsonObject = {"type": "compaction", "encrypted_content": reasoning.encrypted_content}
    if reasoning.item_id is not None:
        item["id"] = reasoning.item_id
    return item
