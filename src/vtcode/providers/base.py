"""The one interface every model adapter implements."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol, runtime_checkable

from vtcode.protocol.messages import Message
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


@runtime_checkable
class NativeCompaction(Protocol):
    """A client whose provider can compact a conversation itself (OpenAI's `/responses/compact`)."""

    @property
    def native_compaction(self) -> bool:
        """Whether this endpoint serves it (a compatible host speaking the same wire may not)."""
        ...

    async def compact(self, request: ModelRequest) -> list[Message]:
        """The provider's shorter version of the conversation; raises `ProviderError`."""
        ...
