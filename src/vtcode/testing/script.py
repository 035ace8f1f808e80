"""Scripts that drive the loopback servers and the scripted model: one step per request."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

# In a scripted tool call's arguments, stands for the `session_id` of the latest command session the
# request reports (session ids are random, so a script cannot know them in advance).
LAST_SESSION_ID = "<last-session-id>"
_SESSION_ID_IN_BODY = re.compile(r'session_id\\*"\s*:\s*\\*"([A-Za-z0-9_-]+)')


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
    # Anthropic only: prompt tokens written to the cache (part of `input_tokens`, like cache reads).
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    chunk_size: int = 4
    # Seconds to wait before the response headers, and between stream frames.
    delay_before: float = 0.0
    delay_between: float = 0.0
    # Close the connection abruptly after this many frames (no terminal event).
    drop_after: int | None = None
    # After this many frames, send only `: keep-alive` comments (every `keep_alive_every` seconds) until
    # the client hangs up: a stream that looks alive to a per-read timeout but never ends.
    stall_after: int | None = None
    keep_alive_every: float = 0.1
    # Send a frame with undecodable JSON after this many frames.
    malformed_after: int | None = None
    stop_reason: str | None = None
    # Anthropic only: the compaction edit fired and wrote this summary (a `compaction` block first).
    # With nothing else in the reply it pauses there (`stop_reason: "compaction"`).
    compaction: str | None = None


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
class RawResponse:
    """Any HTTP response, sent as given: a server that is not the API the client expects."""

    body: str
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    delay_before: float = 0.0


@dataclass(frozen=True)
class JsonReply:
    """A plain JSON 200 response instead of a stream (OpenAI's `/responses/compact` answers so)."""

    body: dict[str, Any]
    delay_before: float = 0.0


Step = Reply | HttpError | RawResponse | JsonReply


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


def with_session_id(reply: Reply, request_body: bytes) -> Reply:
    """`reply` with `LAST_SESSION_ID` in its tool calls replaced by the last session id in the request."""
    if not any(LAST_SESSION_ID in call.arguments for call in reply.tool_calls):
        return reply
    found = _SESSION_ID_IN_BODY.findall(request_body.decode("utf-8", "replace"))
    session_id = found[-1] if found else "no-session-yet"
    calls = tuple(
        replace(call, arguments=call.arguments.replace(LAST_SESSION_ID, session_id))
        for call in reply.tool_calls
    )
    return replace(reply, tool_calls=calls)


def fragments(text: str, size: int) -> list[str]:
    """Cut `text` into pieces of at most `size` characters (none for an empty text)."""
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)]


def call_id(call: ScriptToolCall, index: int, prefix: str) -> str:
    """The call's id, or a deterministic one for its position."""
    return call.id or f"{prefix}_{index}"
