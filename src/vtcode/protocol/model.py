"""What the runtime asks of a model and what a model streams back, independent of any wire format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from vtcode.protocol.messages import AssistantMessage, Message, Usage

# What a tool call does, for approvals, parallelism and display: reads run in parallel and never ask;
# `session_input` is input typed into an already approved command session; `external` is a tool served
# by another program (an MCP server).
# The three wire formats vtcode speaks.
WireApi = Literal["chat", "responses", "anthropic"]

ToolKind = Literal["read", "edit", "command", "session_input", "external"]


class ToolSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A function tool offered to the model; `parameters` is a JSON Schema object."""

    name: str
    description: str
    parameters: dict[str, Any]


def object_parameters(properties: dict[str, Any], *, required: Sequence[str] = ()) -> dict[str, Any]:
    """A tool's parameters: an object of `properties` that takes no other keys (every built-in tool's)."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


class SystemPrompt(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The system prompt in two blocks so provider prefix caches hit.

    `static` is byte-identical for every request of a session; `appendix` (project instructions) changes
    only when an instruction source changes.
    """

    static: str
    appendix: str = ""

    def joined(self) -> str:
        """Both blocks as one text, for wire formats with a single system string."""
        if not self.appendix:
            return self.static
        return f"{self.static}\n\n{self.appendix}"


ReasoningEffort = Literal["none", "minimal", "low", "medium", "high"]


class ModelRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One request to a model."""

    model: str
    system: SystemPrompt
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    max_output_tokens: int | None = None
    reasoning_effort: ReasoningEffort | None = None
    temperature: float | None = None
    # Stable per session: OpenAI `prompt_cache_key`; ignored by providers without one.
    cache_key: str | None = None
    # The model accepts images: tool results' image parts are sent, otherwise only their description.
    images: bool = False


class TextDelta(msgspec.Struct, frozen=True, tag="text_delta"):
    """A piece of the answer text."""

    text: str


class ReasoningDelta(msgspec.Struct, frozen=True, tag="reasoning_delta"):
    """A piece of reasoning or thinking text, never part of the answer."""

    text: str


class ToolCallStarted(msgspec.Struct, frozen=True, tag="tool_call_started"):
    """The model began a tool call; arguments follow as fragments."""

    index: int
    id: str
    name: str


class ToolCallDelta(msgspec.Struct, frozen=True, tag="tool_call_delta"):
    """A fragment of a tool call's JSON arguments."""

    index: int
    fragment: str


StopReason = Literal["end_turn", "tool_use", "max_tokens", "content_filter", "other"]


class Completed(msgspec.Struct, frozen=True, tag="completed"):
    """The stream finished normally; `message` is the whole assembled reply."""

    message: AssistantMessage
    usage: Usage
    stop_reason: StopReason
    response_id: str | None = None


StreamEvent = TextDelta | ReasoningDelta | ToolCallStarted | ToolCallDelta | Completed
