"""Scripts that drive the loopback servers and the scripted model: one step per request."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ScriptToolCall:
    """A tool call the fake model makes; `arguments` is JSON text, streamed in fragments."""

    name: str
    arguments: str
    id: str = ""


@dataclass(frozen=True)
class Reply:
    """A successful streamed reply, with optional faults injected into the stream.

    Text, reasoning and tool-call arguments are cut into `chunk_size`-character fragments so parsers are
    exercised on many small deltas.
    """

    text: str = ""
    reasoning: str = ""
    tool_calls: tuple[ScriptToolCall, ...] = ()
    input_tokens: int = 10
    output_tokens: int = 5
    cached_input_tokens: int = 0
    reasoning_tokens: int = 0
    chunk_size: int = 4
    # Seconds to wait before the response headers, and between stream frames.
    delay_before: float = 0.0
    delay_between: float = 0.0
    # Close the connection abruptly after this many frames (no terminal event).
    drop_after: int | None = None
    # Send a frame with undecodable JSON after this many frames.
    malformed_after: int | None = None
    stop_reason: str | None = None


@dataclass(frozen=True)
class HttpError:
    """An HTTP error response instead of a stream."""

    status: int
    message: str = "error"
    error_type: str = ""
    code: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_before: float = 0.0


@dataclass(frozen=True)
class JsonReply:
    """A plain JSON 200 response instead of a stream (OpenAI's `/responses/compact` answers so)."""

    body: dict[str, Any]
    delay_before: float = 0.0


Step = Reply | HttpError | JsonReply


@dataclass(frozen=True)
class RecordedRequest:
    """A request a loopback server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    received_at: float

    def json(self) -> Any:
        """The body parsed as JSON."""
        import json

        return json.loads(self.body)


def fragments(text: str, size: int) -> list[str]:
    """Cut `text` into pieces of at most `size` characters (none for an empty text)."""
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)]


def call_id(call: ScriptToolCall, index: int, prefix: str) -> str:
    """The call's id, or a deterministic one for its position."""
    return call.id or f"{prefix}_{index}"
