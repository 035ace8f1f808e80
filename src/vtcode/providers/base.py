"""The one interface every model adapter implements."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol, runtime_checkable

import msgspec

from vtcode.protocol.messages import Message, Usage
from vtcode.protocol.model import ModelRequest, StreamEvent


class ModelClient(Protocol):
    """A streaming model client.

    `stream` yields deltas and ends with exactly one `Completed`, or raises `ProviderError`. Retries happen
    inside, and only before any delta was yielded: output that reached the user is never replayed silently.
    """

    @property
    def provider(self) -> str:
        """Provider name for messages and session metadata (e.g. "openai", "anthropic", "ollama")."""
        ...

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send one request and stream the reply."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...


class NativeCompactionReply(msgspec.Struct, frozen=True):
    """A compaction endpoint's shorter conversation, and what the call used (for the usage account)."""

    messages: list[Message]
    # None: the endpoint did not say.
    usage: Usage | None = None


@runtime_checkable
class NativeCompaction(Protocol):
    """A client whose provider can compact a conversation itself (OpenAI's `/responses/compact`)."""

    @property
    def native_compaction(self) -> bool:
        """Whether this endpoint serves it (a compatible host speaking the same wire may not)."""
        ...

    async def compact(self, request: ModelRequest) -> NativeCompactionReply:
        """The provider's shorter version of the conversation; raises `ProviderError`."""
        ...


class InlineCompactionReply(msgspec.Struct, frozen=True):
    """What a request carrying a compaction edit came back with.

    `compaction` is the text of the provider's compaction block (None: no block came); `stop_reason` is
    the provider's own stop reason, unmapped (Anthropic: `compaction` after a pause).
    """

    compaction: str | None
    stop_reason: str | None
    # What the request used, for the session's accounting (None: the adapter could not tell).
    usage: Usage | None = None


@runtime_checkable
class InlineCompaction(Protocol):
    """A client whose provider compacts a normal request when asked to (Anthropic's compaction edit)."""

    @property
    def inline_compaction(self) -> bool:
        """Whether this endpoint serves it (the provider's own host, not a compatible one)."""
        ...

    async def compact_inline(
        self, request: ModelRequest, *, trigger_tokens: int, instructions: str | None = None
    ) -> InlineCompactionReply:
        """Send `request` with the edit (pausing after compaction); raises `ProviderError`."""
        ...
