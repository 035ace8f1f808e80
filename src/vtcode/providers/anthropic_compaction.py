"""Anthropic's compaction edit (beta `compact-2026-01-12`): the request that asks for it, and its reply.

A normal Messages request carries `context_management.edits = [{"type": "compact_20260112", ...}]`.
When the input reaches the edit's `trigger`, the API summarizes the conversation into a `compaction`
content block (streamed as `content_block_start` + `compaction_delta`s); with `pause_after_compaction`
the reply stops there with `stop_reason: "compaction"`. Below the trigger the request is answered as
usual, which the decoder notices at the first content block, and stops reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from vtcode.core.compaction.inline import edit_instructions
from vtcode.protocol.messages import AssistantMessage, Message, Usage, UserMessage
from vtcode.protocol.model import ModelRequest, StreamEvent
from vtcode.providers.anthropic_request import build_request
from vtcode.providers.anthropic_stream import AnthropicStreamDecoder
from vtcode.providers.sse import SseEvent

COMPACTION_BETA = "compact-2026-01-12"
COMPACT_EDIT = "compact_20260112"

# The API reads the conversation up to a user turn; a history that ends with the assistant's answer
# (`/compact` between turns) would otherwise be sent as a prefill, which newer models refuse.
CHECKPOINT_TEXT = "(Context checkpoint: compact the conversation so far. The session continues after it.)"


def compaction_edit(trigger_tokens: int, instructions: str | None = None) -> dict[str, Any]:
    """The `compact_20260112` edit: an input-token trigger, pausing after compaction."""
    edit: dict[str, Any] = {
        "type": COMPACT_EDIT,
        "trigger": {"type": "input_tokens", "value": trigger_tokens},
        "pause_after_compaction": True,
    }
    text = edit_instructions(instructions)
    if text is not None:
        edit["instructions"] = text
    return edit


def encode_compaction_request(
    request: ModelRequest, trigger_tokens: int, instructions: str | None = None
) -> bytes:
    """The streaming Messages body of `request` (ending on a user turn) with the compaction edit."""
    messages = request.messages
    if messages and not _user_turn(messages[-1]):
        messages = (*messages, UserMessage(CHECKPOINT_TEXT))
    body = build_request(msgspec.structs.replace(request, messages=messages))
    body["context_management"] = {"edits": [compaction_edit(trigger_tokens, instructions)]}
    return msgspec.json.encode(body)


def beta_headers(endpoint_headers: Mapping[str, str]) -> dict[str, str]:
    """`anthropic-beta` with the compaction beta added to any the endpoint already sends."""
    current = next((v for k, v in endpoint_headers.items() if k.lower() == "anthropic-beta"), "")
    betas = [b.strip() for b in current.split(",") if b.strip()]
    if COMPACTION_BETA not in betas:
        betas.append(COMPACTION_BETA)
    return {"anthropic-beta": ",".join(betas)}


def _user_turn(message: Message) -> bool:
    # Tool results travel in a user turn too; a system note from the history is sent as user text.
    return not isinstance(message, AssistantMessage)


class CompactionStreamDecoder(AnthropicStreamDecoder):
    """The stream decoder of a compaction request: done early once the edit clearly did not fire.

    The compaction block is the reply's first block when the edit fires; any other first block is the
    model answering, which nobody reads: closing the stream there stops paying for it.
    """

    def feed(self, sse: SseEvent) -> list[StreamEvent]:
        """Decode one SSE event; stops the stream at a first block that is not a compaction."""
        events = super().feed(sse)
        if self.first_block not in (None, "compaction"):
            self.done = True
        return events

    def usage(self) -> Usage:
        """What the reply reported so far (the prompt at least: a stream closed early has no total)."""
        return self._final_usage()
