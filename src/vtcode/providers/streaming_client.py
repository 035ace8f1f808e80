"""What every wire adapter shares: one streaming POST per attempt, decoded, inside the retry loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import aclosing
from typing import TYPE_CHECKING, Protocol

from vtcode.protocol.model import ModelRequest, StreamEvent
from vtcode.providers.http import Endpoint, SseTransport, retrying
from vtcode.providers.sse import SseEvent

if TYPE_CHECKING:
    import httpx2


class StreamDecoder(Protocol):
    """Turns one response's SSE events into stream events ending with `Completed`."""

    @property
    def done(self) -> bool:
        """True once the terminal event arrived."""
        ...

    def feed(self, sse: SseEvent) -> list[StreamEvent]:
        """Decode one SSE event."""
        ...

    def close(self) -> None:
        """The byte stream ended; raise a retryable network error unless `done`."""
        ...


class NewDecoder(Protocol):
    """A decoder class: made per response for the endpoint's provider (and its API key variable)."""

    def __call__(self, *, provider: str, api_key_env: str | None) -> StreamDecoder:
        """A fresh decoder."""
        ...


class StreamingClient:
    """A ModelClient for one wire format; subclasses say where to POST, what, and how to decode."""

    #: The wire's decoder; each response gets a fresh one.
    decoder_type: NewDecoder

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        notify: Callable[[str], None] | None = None,
        client: httpx2.AsyncClient | None = None,
    ) -> None:
        self.endpoint = endpoint
        self._sleep = sleep
        self._notify = notify
        self._transport = SseTransport(endpoint, client)

    @property
    def provider(self) -> str:
        """Provider name of the endpoint (e.g. "openai", "ollama", "anthropic")."""
        return self.endpoint.provider

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send one request and stream the reply, retrying failures that happen before any output."""
        return retrying(
            lambda: self._attempt(request), self.endpoint.retry, sleep=self._sleep, notify=self._notify
        )

    async def aclose(self) -> None:
        """Close pooled connections."""
        await self._transport.aclose()

    #: The wire format, as named to a user whose server answers something else.
    api_name = "OpenAI-compatible"

    def path(self) -> str:
        """The API path relative to the endpoint's base URL."""
        raise NotImplementedError

    def encode(self, request: ModelRequest) -> bytes:
        """The JSON request body."""
        raise NotImplementedError

    def decoder(self) -> StreamDecoder:
        """A fresh decoder for one response."""
        return self.decoder_type(provider=self.provider, api_key_env=self.endpoint.api_key_env)

    async def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        async for event in self._decode(self.encode(request), self.decoder()):
            yield event

    async def _decode(
        self, body: bytes, decoder: StreamDecoder, headers: Mapping[str, str] | None = None
    ) -> AsyncIterator[StreamEvent]:
        """One attempt: POST `body` (with extra `headers`) and decode the reply with `decoder`."""
        # Closing the event generator releases the connection as soon as we stop reading.
        async with aclosing(
            self._transport.events(self.path(), body, api=self.api_name, headers=headers)
        ) as events:
            async for sse in events:
                for event in decoder.feed(sse):
                    yield event
                if decoder.done:
                    # Stop at the terminal event: a connection reset after it must not turn a
                    # complete reply into a failure.
                    return
        decoder.close()
