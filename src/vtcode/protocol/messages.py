"""Conversation messages as providers see them, with per-message metadata that survives every transform."""

from __future__ import annotations

from typing import Literal

import msgspec


class MessageMeta(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Metadata carried with a message and never sent to a provider.

    `intent_id` tags a user message that came from a steering intent; compaction, truncation and previews
    must keep it (SPEC section 7).
    """

    intent_id: str | None = None
    created_at: float | None = None
    turn: int | None = None
    # On a tool result: the workspace-relative paths the call read, wrote or ran in. Instruction scope
    # (which nested AGENTS.md apply) is rebuilt from these on resume, so they must survive compaction.
    paths: tuple[str, ...] = ()
    # Written by vtcode, not by the user: "context" is the environment context item, "interruption" the
    # note that the user interrupted a turn before it was answered (so resuming does not answer it
    # again). Compaction does not keep either as the user's words; steering never matches them.
    # "shell" is a command the user ran with `!cmd` and its result: the model reads it, never answers it.
    kind: Literal["context", "interruption", "shell"] | None = None


class Reasoning(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A reasoning or thinking block, with what a provider needs to accept it back in a later request."""

    text: str = ""
    # Anthropic thinking signature, or the redacted payload of a redacted_thinking block.
    signature: str | None = None
    redacted: str | None = None
    # OpenAI Responses reasoning item id and encrypted content.
    item_id: str | None = None
    encrypted_content: str | None = None
    # An opaque provider compaction item (Responses `compaction`): replayed as is, never shown.
    compaction: bool = False


class ToolCall(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A function call requested by the model; `arguments` is the raw JSON text the provider sent."""

    id: str
    name: str
    arguments: str
    # OpenAI Responses distinguishes the function_call item id from its call id.
    item_id: str | None = None


class SystemMessage(msgspec.Struct, frozen=True, tag="system", tag_field="role", forbid_unknown_fields=True):
    """A system message inside the history (rare: the system prompt itself travels separately)."""

    content: str
    meta: MessageMeta = MessageMeta()


class ImagePart(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An image in a user message or a tool result: base64 `data` of type `mime_type` (image/png, ...)."""

    mime_type: str
    data: str


class UserMessage(
    msgspec.Struct, frozen=True, tag="user", tag_field="role", forbid_unknown_fields=True, omit_defaults=True
):
    """A user message; `images` (pasted or sent by an editor) follow the text, in order."""

    content: str
    meta: MessageMeta = MessageMeta()
    # Sent as images to models that accept them; other models read one short note per image.
    images: tuple[ImagePart, ...] = ()


class AssistantMessage(
    msgspec.Struct, frozen=True, tag="assistant", tag_field="role", forbid_unknown_fields=True
):
    """An assistant reply: text, reasoning kept apart from the answer, and tool calls."""

    content: str = ""
    reasoning: tuple[Reasoning, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    meta: MessageMeta = MessageMeta()


class ToolResultMessage(
    msgspec.Struct, frozen=True, tag="tool", tag_field="role", forbid_unknown_fields=True
):
    """The result of one tool call; every call gets exactly one."""

    call_id: str
    name: str
    content: str
    is_error: bool = False
    meta: MessageMeta = MessageMeta()
    # Sent as images to models that accept them; `content` always describes them in words too.
    images: tuple[ImagePart, ...] = ()


Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage


class Usage(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Token usage a provider reported for one request."""

    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    reasoning_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cached_input_tokens=self.cached_input_tokens + other.cached_input_tokens,
            cache_creation_input_tokens=self.cache_creation_input_tokens + other.cache_creation_input_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
        )
