"""The HTTP path shared by every adapter: one POST that streams SSE, and the retry loop around attempts."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field

import httpx2

from vtcode.core.retry import RetryPolicy, backoff_delay, may_retry, parse_retry_after
from vtcode.protocol.errors import ProviderError
from vtcode.protocol.model import Completed, StreamEvent
from vtcode.providers.errors import classify_status, network_error, not_a_streaming_api
from vtcode.providers.sse import SseEvent, iter_sse
from vtcode.providers.tls import verify_for

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
Notify = Callable[[str], None]


@dataclass(frozen=True)
class Endpoint:
    """Where and how to reach one provider."""

    provider: str
    base_url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    # The environment variable that holds the key, named in auth error hints.
    api_key_env: str | None = None
    connect_timeout: float = 10.0
    # Longest silence allowed between two chunks of a stream.
    idle_timeout: float = 300.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)

    def url(self, path: str) -> str:
        """Join the base URL and an API path without doubling slashes."""
        return self.base_url.rstrip("/") + "/" + path.lstrip("/")


class SseTransport:
    """Sends one streaming request per call; maps every transport failure to a ProviderError."""

    def __init__(self, endpoint: Endpoint, client: httpx2.AsyncClient | None = None) -> None:
        self.endpoint = endpoint
        self._client = client or httpx2.AsyncClient(
            timeout=httpx2.Timeout(
                connect=endpoint.connect_timeout,
                read=endpoint.idle_timeout,
                write=endpoint.idle_timeout,
                pool=endpoint.connect_timeout,
            ),
            follow_redirects=True,
            verify=verify_for(endpoint.base_url),
        )

    async def aclose(self) -> None:
        """Close pooled connections."""
        await self._client.aclose()

    async def events(
        self, path: str, body: bytes, *, api: str, headers: Mapping[str, str] | None = None
    ) -> AsyncGenerator[SseEvent, None]:
        """POST `body` as JSON and yield the SSE events of the reply.

        `api` names the wire format in the error for a server that answers something else; `headers`
        are added to (and override) the endpoint's own for this request.
        """
        ep = self.endpoint
        sent = {
            "content-type": "application/json",
            "accept": "text/event-stream",
            **ep.headers,
            **(headers or {}),
        }
        try:
            async with self._client.stream("POST", ep.url(path), content=body, headers=sent) as response:
                if response.status_code >= 400:
                    raw = await response.aread()
                    error = classify_status(
                        response.status_code,
                        raw.decode("utf-8", "replace"),
                        provider=ep.provider,
                        api_key_env=ep.api_key_env,
                    )
                    error.retry_after = parse_retry_after(dict(response.headers), time.time())
                    raise error
                media = response.headers.get("content-type", "").partition(";")[0].strip().lower()
                wrong = not_a_streaming_api(ep.provider, ep.base_url, api, media)
                if media in _WEB_PAGES:
                    raise wrong
                received = _Counted(response.aiter_bytes())
                any_event = False
                async for event in iter_sse(received.chunks()):
                    any_event = True
                    yield event
                # Bytes but not one event: junk, or a JSON reply from a server that ignores `stream`.
                # An empty event stream stays a network failure (a cut connection), which is retried.
                if not any_event and (received.total or media != "text/event-stream"):
                    raise wrong
        except httpx2.TimeoutException as exc:
            raise network_error(ep.provider, f"timed out ({type(exc).__name__})") from exc
        except httpx2.TransportError as exc:
            detail = str(exc) or type(exc).__name__
            raise network_error(ep.provider, detail) from exc

    async def post_json(self, path: str, body: bytes) -> bytes:
        """POST `body` as JSON and return the (non-streamed) reply body; errors as in `events`."""
        ep = self.endpoint
        headers = {"content-type": "application/json", "accept": "application/json", **ep.headers}
        try:
            response = await self._client.post(ep.url(path), content=body, headers=headers)
        except httpx2.TimeoutException as exc:
            raise network_error(ep.provider, f"timed out ({type(exc).__name__})") from exc
        except httpx2.TransportError as exc:
            raise network_error(ep.provider, str(exc) or type(exc).__name__) from exc
        if response.status_code >= 400:
            raise classify_status(
                response.status_code,
                response.content.decode("utf-8", "replace"),
                provider=ep.provider,
                api_key_env=ep.api_key_env,
            )
        return bytes(response.content)


# A web page (a proxy's login or error page, a wrong --base-url) is never a stream.
_WEB_PAGES = frozenset({"text/html", "application/xhtml+xml"})


class _Counted:
    """Passes a byte stream through, counting its bytes."""

    def __init__(self, chunks: AsyncIterator[bytes]) -> None:
        self._chunks = chunks
        self.total = 0

    async def chunks(self) -> AsyncIterator[bytes]:
        """The chunks, counted as they pass."""
        async for chunk in self._chunks:
            self.total += len(chunk)
            yield chunk


def _is_output(event: StreamEvent) -> bool:
    return not isinstance(event, Completed)


async def retrying(
    attempt: Callable[[], AsyncIterator[StreamEvent]],
    policy: RetryPolicy,
    *,
    sleep: Sleep = asyncio.sleep,
    rng: random.Random | None = None,
    notify: Notify | None = None,
) -> AsyncIterator[StreamEvent]:
    """Run `attempt` until it completes, retrying retryable failures that happen before any output.

    Once a delta has been yielded the caller has shown it; a later failure is raised (marked partial)
    instead of replaying the answer behind the user's back.
    """
    rng = rng or random.Random()
    waited = 0.0
    tries = 0
    while True:
        emitted = False
        try:
            async for event in attempt():
                emitted = emitted or _is_output(event)
                yield event
            return
        except ProviderError as error:
            if emitted:
                if error.retryable:
                    raise network_error(error.provider, error.message, partial=True) from error
                raise
            tries += 1
            if not error.retryable:
                raise
            delay = backoff_delay(policy, tries, error.retry_after, rng.random())
            if not may_retry(policy, tries, delay, waited):
                if tries > 1:
                    error.message = f"{error.message} (after {tries - 1} retries)"
                raise
            log.info("retrying %s in %.2fs: %s", error.provider, delay, error.message)
            if notify is not None:
                notify(f"{error.message}; retrying in {delay:.1f}s (attempt {tries + 1})")
            waited += delay
            await sleep(delay)
