"""The Chat Completions model client: OpenAI and every OpenAI-compatible server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing

import httpx2

from vtcode.protocol.model import ModelRequest, StreamEvent
from vtcode.providers.http import Endpoint, SseTransport, retrying
from vtcode.providers.openai_chat_request import encode_chat_request
from vtcode.providers.openai_chat_stream import ChatStreamDecoder

#: Relative to the endpoint's base URL, which carries the version prefix (`https://api.openai.com/v1`).
CHAT_COMPLETIONS_PATH = "chat/completions"


class OpenAIChatClient:
    """Streams `POST {base_url}/chat/completions` replies as stream events, with bounded retries."""

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

    @property
    def provider(self) -> str:
        """Provider name of the endpoint (e.g. "openai", "ollama")."""
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
        ep = self._endpoint
        body = encode_chat_request(request, provider=ep.provider)
        decoder = ChatStreamDecoder(provider=ep.provider, api_key_env=ep.api_key_env)
        # After [DONE] we stop reading: closing the generator releases the response at once.
        async with aclosing(self._transport.events(CHAT_COMPLETIONS_PATH, body)) as stream:
            async for sse in stream:
                for event in decoder.feed(sse):
                    yield event
                if decoder.done:
                    return
        decoder.close()
