"""The Anthropic Messages API client: one streaming POST per attempt, retried by the shared loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing

import httpx2

from vtcode.protocol.model import ModelRequest, StreamEvent
from vtcode.providers.anthropic_request import encode_request
from vtcode.providers.anthropic_stream import AnthropicStreamDecoder
from vtcode.providers.http import Endpoint, SseTransport, retrying


def messages_path(base_url: str) -> str:
    """The messages path relative to `base_url`, which may or may not end in `/v1`."""
    # ANTHROPIC_BASE_URL and the official SDK use the host root (https://api.anthropic.com), while
    # OpenAI-style settings and many proxies include the version; both forms reach `/v1/messages`.
    return "messages" if base_url.rstrip("/").endswith("/v1") else "v1/messages"


class AnthropicClient:
    """A ModelClient for `POST /v1/messages` with `stream: true`.

    Authentication (`x-api-key`) and `anthropic-version` travel in `endpoint.headers`, set by the caller.
    """

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        notify: Callable[[str], None] | None = None,
        client: httpx2.AsyncClient | None = None,
    ) -> None:
        self._endpoint = endpoint
        self._sleep = sleep
        self._notify = notify
        self._transport = SseTransport(endpoint, client)
        self._path = messages_path(endpoint.base_url)

    @property
    def provider(self) -> str:
        """Provider name from the endpoint."""
        return self._endpoint.provider

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send one request and stream the reply, retrying failures that happen before any output."""
        return retrying(
            lambda: self._attempt(request), self._endpoint.retry, sleep=self._sleep, notify=self._notify
        )

    async def aclose(self) -> None:
        """Close pooled connections."""
        await self._transport.aclose()

    async def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        decoder = AnthropicStreamDecoder(self._endpoint.provider, api_key_env=self._endpoint.api_key_env)
        # Closing the event generator at once releases the connection when we stop reading early.
        async with aclosing(self._transport.events(self._path, encode_request(request))) as events:
            async for sse in events:
                for event in decoder.feed(sse):
                    yield event
                if decoder.done:
                    # Stop reading at message_stop: a connection reset after it must not turn a complete
                    # reply into a failure.
                    return
        decoder.close()
