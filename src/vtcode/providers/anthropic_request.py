"""Build the Anthropic Messages API request body from a ModelRequest (pure: no I/O, no clock)."""

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
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from vtcode.protocol.model import ModelRequest, ReasoningEffort, SystemPrompt, ToolSpec

# `max_tokens` is required by the Messages API. 8192 is the largest output every current Claude model
# accepts (the 3.5 generation caps there), so a request without an explicit cap works on all of them.
DEFAULT_MAX_TOKENS = 8192

# Thinking budgets per effort. 1024 is the API's minimum budget; "none" sends no `thinking` at all.
THINKING_BUDGETS: dict[ReasoningEffort, int] = {
    "minimal": 1024,
    "low": 2048,
    "medium": 8192,
    "high": 24576,
}
MIN_THINKING_BUDGET = 1024

# Room kept for the answer on top of a full thinking budget when the caller set no cap: thinking counts
# against `max_tokens`. 24576 + 4096 stays under the 32,000-token output ceiling of Opus 4/4.1, the
# smallest ceiling among thinking-capable models.
ANSWER_ROOM = 4096

_EPHEMERAL: dict[str, str] = {"type": "ephemeral"}

# Anthropic rejects an error tool_result with empty content ("content cannot be empty if is_error").
_EMPTY_ERROR_RESULT = "(the tool failed without output)"


def build_request(request: ModelRequest) -> dict[str, Any]:
    """The JSON body of `POST /v1/messages` for `request`."""
    max_tokens, budget = output_limits(request.max_output_tokens, request.reasoning_effort)
    body: dict[str, Any] = {"model": request.model, "max_tokens": max_tokens}
    system = system_blocks(request.system)
    if system:
        body["system"] = system
    body["messages"] = convert_messages(request.messages, images=request.images)
    _mark_conversation_breakpoint(body["messages"])
    if request.tools:
        body["tools"] = tool_blocks(request.tools)
    if budget is not None:
        body["thinking"] = {"type": "enabled", "budget_tokens": budget}
    elif request.temperature is not None:
        # The API refuses any temperature other than the default while thinking is enabled.
        body["temperature"] = request.temperature
    body["stream"] = True
    return body


def encode_request(request: ModelRequest) -> bytes:
    """The streaming request body as JSON bytes."""
    return msgspec.json.encode(build_request(request))


def output_limits(max_output_tokens: int | None, effort: ReasoningEffort | None) -> tuple[int, int | None]:
    """`max_tokens` and the thinking budget (None: thinking off); the budget is always below `max_tokens`."""
    budget = THINKING_BUDGETS.get(effort) if effort is not None else None
    if max_output_tokens is not None:
        # An explicit cap bounds thinking and answer together; shrink the budget rather than the cap.
        if budget is not None:
            budget = min(budget, max_output_tokens - 1)
            if budget < MIN_THINKING_BUDGET:
                budget = None
        return max_output_tokens, budget
    if budget is None:
        return DEFAULT_MAX_TOKENS, None
    return max(DEFAULT_MAX_TOKENS, budget + ANSWER_ROOM), budget


def system_blocks(system: SystemPrompt) -> list[dict[str, Any]]:
    """The system prompt as text blocks: the static block carries the prefix cache breakpoint."""
    blocks: list[dict[str, Any]] = []
    # The API rejects empty text blocks, so an empty part is left out rather than sent blank.
    if system.static:
        # Everything up to and including this block (tools, then the static prompt) is byte-identical for
        # the whole session, so it is one cache entry; the appendix after it may change without a miss.
        blocks.append({"type": "text", "text": system.static, "cache_control": _EPHEMERAL})
    if system.appendix:
        blocks.append({"type": "text", "text": system.appendix})
    return blocks


def tool_blocks(tools: tuple[ToolSpec, ...]) -> list[dict[str, Any]]:
    """Tool definitions; the last one carries a cache breakpoint."""
    blocks: list[dict[str, Any]] = [
        {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}
        for tool in tools
    ]
    # Anthropic's cache prefix runs tools -> system -> messages, and a breakpoint caches everything up to
    # it. The tool schemas come first and are the largest stable part, so they get their own breakpoint:
    # requests that share the tools but not the static system prompt (a summary request, a profile
    # switch) still hit it. The static system block's breakpoint then extends the same prefix.
    blocks[-1]["cache_control"] = _EPHEMERAL
    return blocks


def _mark_conversation_breakpoint(messages: list[dict[str, Any]]) -> None:
    # A third, moving breakpoint on the newest block caches the conversation itself: the next request
    # (the same history plus new messages) reads it back instead of paying for it again. Three of the
    # four breakpoints the API allows are used: tools, static system, conversation.
    if messages and messages[-1]["content"]:
        last = messages[-1]["content"][-1]
        if last["type"] in ("text", "image", "tool_result", "tool_use"):
            messages[-1]["content"][-1] = {**last, "cache_control": _EPHEMERAL}


def convert_messages(messages: tuple[Message, ...], *, images: bool = False) -> list[dict[str, Any]]:
    """History as alternating user/assistant messages of content blocks.

    With `images`, a tool result's images become image blocks inside its `tool_result`.
    """
    out: list[dict[str, Any]] = []
    for message in messages:
        role, blocks = _blocks(message, images=images)
        if not blocks:
            continue
        if out and out[-1]["role"] == role:
            # The API requires strict alternation: consecutive tool results, or a user message after
            # them, become one user message.
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    for entry in out:
        if entry["role"] == "user":
            entry["content"] = _tool_results_first(entry["content"])
    return out


def _blocks(message: Message, *, images: bool = False) -> tuple[str, list[dict[str, Any]]]:
    match message:
        case UserMessage(content=text, images=parts) if parts and images:
            return "user", [*_text(text), *(_image_block(i) for i in parts)]
        case UserMessage(content=text, images=parts):
            return "user", _text(with_image_notes(text, parts, NOT_TAKEN))
        case SystemMessage(content=text):
            # There is no system role inside `messages`; a system note from the history keeps its place
            # in the conversation as user text instead of moving into the cached system prompt.
            return "user", _text(text)
        case AssistantMessage():
            return "assistant", _assistant_blocks(message)
        case ToolResultMessage():
            text = message.content or (_EMPTY_ERROR_RESULT if message.is_error else "")
            content: str | list[dict[str, Any]] = text
            if images and message.images:
                content = [
                    *_text(text),
                    *(_image_block(i) for i in message.images),
                ]
            return "user", [
                {
                    "type": "tool_result",
                    "tool_use_id": message.call_id,
                    "content": content,
                    "is_error": message.is_error,
                }
            ]


def _image_block(image: ImagePart) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": image.mime_type, "data": image.data}}


def _text(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text}] if text else []


def _assistant_blocks(message: AssistantMessage) -> list[dict[str, Any]]:
    # Thinking must come first in the turn, and it is accepted back only as the provider signed it.
    blocks = [block for item in message.reasoning if (block := _thinking_block(item)) is not None]
    blocks += _text(message.content)
    blocks += [_tool_use_block(call) for call in message.tool_calls]
    return blocks


def _thinking_block(item: Reasoning) -> dict[str, Any] | None:
    if item.redacted:
        return {"type": "redacted_thinking", "data": item.redacted}
    if item.signature:
        return {"type": "thinking", "thinking": item.text, "signature": item.signature}
    # Unsigned reasoning (another provider's, or a stream cut before the signature) would be rejected.
    return None


def _tool_use_block(call: ToolCall) -> dict[str, Any]:
    return {"type": "tool_use", "id": call.id, "name": call.name, "input": tool_input(call.arguments)}


def tool_input(arguments: str) -> dict[str, Any]:
    """The `input` object for a call's raw JSON arguments.

    `input` must be an object. Arguments that are not a JSON object (a model's broken JSON) are kept as
    `{"_raw": text}` rather than dropped to `{}`, so the model can still see what it sent when it reads the
    error result that the tool returned for them.
    """
    if not arguments.strip():
        return {}
    try:
        # Every past call is re-sent on every request; msgspec decodes about twice as fast as json.
        value = msgspec.json.decode(arguments)
    except msgspec.DecodeError:
        return {"_raw": arguments}
    return value if isinstance(value, dict) else {"_raw": arguments}


def _tool_results_first(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # The API requires tool_result blocks before any text in a user message; a user message that landed
    # between a tool call and its results (a steering note) moves behind them.
    results = [block for block in blocks if block["type"] == "tool_result"]
    others = [block for block in blocks if block["type"] != "tool_result"]
    return results + others
