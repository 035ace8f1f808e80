"""Build the body of a streaming Chat Completions request (`POST /v1/chat/completions`), pure and exact.

The same body serves OpenAI and the OpenAI-compatible servers (Ollama, vLLM, LM Studio, llama.cpp,
OpenRouter, Gemini's OpenAI endpoint); the few fields only OpenAI understands are sent only when the
endpoint's provider is "openai".
"""

from __future__ import annotations

from typing import Any

import msgspec

from vtcode.core.images import NOT_TAKEN, with_image_notes
from vtcode.core.tool_schema import gemini_schema
from vtcode.protocol.messages import (
    AssistantMessage,
    ImagePart,
    Message,
    SystemMessage,
    ToolResultMessage,
    UserMessage,
)
from vtcode.protocol.model import ModelRequest, ToolSpec

OPENAI = "openai"
GEMINI = "gemini"
#: Prefix of a failed tool result's content: Chat Completions has no error flag on tool messages.
ERROR_PREFIX = "ERROR: "


def build_chat_request(request: ModelRequest, *, provider: str) -> dict[str, Any]:
    """The JSON body for `request`, as the provider will see it."""
    official = provider == OPENAI
    body: dict[str, Any] = {
        "model": request.model,
        "messages": _system_messages(request) + _messages(request, provider),
        "stream": True,
        # Without it no usage arrives at all in a streamed reply.
        "stream_options": {"include_usage": True},
    }
    if request.tools:
        body["tools"] = [_tool(tool, provider) for tool in request.tools]
    if request.max_output_tokens is not None:
        # OpenAI deprecated max_tokens (reasoning models reject it); many compatible servers only know it.
        key = "max_completion_tokens" if official else "max_tokens"
        body[key] = request.max_output_tokens
    if request.reasoning_effort is not None:
        body["reasoning_effort"] = request.reasoning_effort
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if official and request.cache_key:
        body["prompt_cache_key"] = request.cache_key
    return body


def encode_chat_request(request: ModelRequest, *, provider: str) -> bytes:
    """The request body as JSON bytes."""
    return msgspec.json.encode(build_chat_request(request, provider=provider))


def _system_messages(request: ModelRequest) -> list[dict[str, Any]]:
    # Two messages rather than one joined text: the first stays byte-identical across the session, so the
    # provider's prefix cache covers it even after the project appendix changes.
    messages: list[dict[str, Any]] = [{"role": "system", "content": request.system.static}]
    if request.system.appendix:
        messages.append({"role": "system", "content": request.system.appendix})
    return messages


def _messages(request: ModelRequest, provider: str) -> list[dict[str, Any]]:
    """The conversation; images of tool results follow the run of tool messages as one user message.

    A tool message carries text only, and nothing may come between an assistant's tool calls and their
    results, so the images of a batch go right after its last result (only for a model that accepts
    images; the results' text describes them either way).
    """
    out: list[dict[str, Any]] = []
    images: list[dict[str, Any]] = []
    for message in request.messages:
        if images and not isinstance(message, ToolResultMessage):
            out.append({"role": "user", "content": images})
            images = []
        out.append(_message(message, provider, images=request.images))
        if request.images and isinstance(message, ToolResultMessage) and message.images:
            images.append({"type": "text", "text": f"Images returned by tool call {message.call_id}:"})
            images.extend(_image_url(image) for image in message.images)
    if images:
        out.append({"role": "user", "content": images})
    return out


def _message(message: Message, provider: str, *, images: bool) -> dict[str, Any]:
    match message:
        case SystemMessage(content=content):
            return {"role": "system", "content": content}
        case UserMessage(content=content, images=parts) if parts and images:
            lead: list[dict[str, Any]] = [{"type": "text", "text": content}] if content else []
            return {"role": "user", "content": [*lead, *(_image_url(part) for part in parts)]}
        case UserMessage(content=content, images=parts):
            return {"role": "user", "content": with_image_notes(content, parts, NOT_TAKEN)}
        case AssistantMessage():
            return _assistant(message, provider)
        case ToolResultMessage(call_id=call_id, content=content, is_error=is_error):
            text = ERROR_PREFIX + content if is_error else content
            return {"role": "tool", "tool_call_id": call_id, "content": text}


def _image_url(image: ImagePart) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": f"data:{image.mime_type};base64,{image.data}"}}


def _assistant(message: AssistantMessage, provider: str) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "assistant"}
    if message.tool_calls:
        # The spec makes content optional next to tool_calls, so a reply that only calls tools leaves it
        # out rather than sending `"content": null` again in every later request.
        if message.content:
            out["content"] = message.content
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                # Servers that render chat templates (vLLM, llama.cpp) parse the arguments; "" is not JSON.
                "function": {"name": call.name, "arguments": call.arguments or "{}"},
            }
            for call in message.tool_calls
        ]
    else:
        out["content"] = message.content
    reasoning = "".join(block.text for block in message.reasoning)
    field = _reasoning_field(provider)
    if reasoning and field is not None:
        out[field] = reasoning
    return out


def _reasoning_field(provider: str) -> str | None:
    """Where earlier reasoning goes back to the server, or None when the server takes none."""
    if provider == OPENAI:
        # OpenAI never streams reasoning text on this API and validates message fields.
        return None
    if provider == "ollama":
        return "reasoning"
    # DeepSeek requires it back inside a tool-calling turn; vLLM and llama.cpp feed it to the template.
    return "reasoning_content"


def _tool(tool: ToolSpec, provider: str) -> dict[str, Any]:
    # Gemini rejects a list as `type` ("Proto field is not repeating"), which nullable fields use.
    parameters = gemini_schema(tool.parameters) if provider == GEMINI else tool.parameters
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": parameters},
    }
