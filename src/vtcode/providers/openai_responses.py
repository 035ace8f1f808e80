"""The OpenAI Responses API client (`POST /v1/responses`, streaming, stateless)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing

import httpx2

from vtcode.protocol.model import Completed, ModelRequest, StreamEvent
from vtcode.providers.http import Endpoint, SseTransport, retrying
from vtcode.providers.openai_responses_request import encode_responses_body
from vtcode.providers.openai_responses_stream import ResponsesStreamDecoder

#: Path below the endpoint's base URL (which carries the `/v1` prefix).
RESPONSES_PATH = "responses"


class OpenAIResponsesClient:
    """A ModelClient speaking the Responses API; every request carries the whole conversation."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        notify: Callable[[str], None] | None = None,
        client: httpx2.AsyncClient | None = None,
    ) -> None:
        self.endpoint = endpoint
        self._transport = SseTransport(endpoint, client)
        self._sleep = sleep
        self._notify = notify

    @property
    def provider(self) -> str:
        """Provider name from the endpoint."""
        return self.endpoint.provider

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send one request and stream the reply, retrying failures that happen before any output."""
        return retrying(
            lambda: self._attempt(request), self.endpoint.retry, sleep=self._sleep, notify=self._notify
        )

    async def aclose(self) -> None:
        """Release pooled connections."""
        await self._transport.aclose()

    async def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        decoder = ResponsesStreamDecoder(self.provider, api_key_env=self.endpoint.api_key_env)
        body = encode_responses_body(request)
        # `events` is an async generator; closing it promptly releases the connection when we stop early.
        async with aclosing(self._transport.events(RESPONSES_PATH, body)) as events:
            async for sse in events:
                for event in decoder.feed(sse):
                    yield event
                    if isinstance(event, Completed):
                        # The terminal event is final; stop reading rather than wait for the close.
                        return
        decoder.finish()
