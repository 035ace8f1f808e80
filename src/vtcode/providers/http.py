"""The HTTP path shared by every adapter: one POST that streams SSE, and the retry loop around attempts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Protocol

import msgspec

from vtcode.core.retry import RetryPolicy, backoff_delay, may_retry, parse_retry_after
from vtcode.protocol.errors import ProviderError
from vtcode.protocol.model import StreamEvent
from vtcode.providers.errors import classify_status, network_error, not_a_streaming_api
from vtcode.providers.plain_http import (
    REDIRECTS,
    PlainHttpClient,
    ReadTimeout,
    TimedOut,
    TransportFailure,
    plain_http_applies,
)
from vtcode.providers.sse import SseEvent, iter_sse
from vtcode.providers.stream_replay import ShownOutput

if TYPE_CHECKING:
    import httpx2

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
Notify = Callable[[str], None]


class Endpoint(msgspec.Struct, frozen=True):
    """Where and how to reach one provider."""

    provider: str
    base_url: str
    headers: Mapping[str, str] = msgspec.field(default_factory=dict)
    # The environment variable that holds the key, named in auth error hints.
    api_key_env: str | None = None
    connect_timeout: float = 10.0
    # Longest silence allowed between two chunks of a stream.
    idle_timeout: float = 300.0
    # Longest a whole streamed response may take, from the request to its last byte: a server that
    # sends only keep-alive comments never trips the idle timeout, which every chunk resets.
    response_deadline: float = 900.0
    retry: RetryPolicy = msgspec.field(default_factory=RetryPolicy)
    # Set by the caller when no proxy variable applies to `base_url` (`plain_http_applies` with the
    # environment): an `http://` endpoint then needs no httpx2.
    plain_http: bool = False

    def url(self, path: str) -> str:
        """Join the base URL and an API path without doubling slashes."""
        return self.base_url.rstrip("/") + "/" + path.lstrip("/")


class SseTransport:
    """Sends one streaming request per call; maps every transport failure to a ProviderError.

    A plain-http endpoint (`Endpoint.plain_http`) goes through `plain_http` without importing httpx2
    (start-up time); httpx2 serves everything else, and takes over such an endpoint at a redirect.
    """

    def __init__(self, endpoint: Endpoint, client: httpx2.AsyncClient | None = None) -> None:
        self.endpoint = endpoint
        self._client = client
        self._plain: PlainHttpClient | None = None
        if client is None and endpoint.plain_http and plain_http_applies(endpoint.base_url, {}):
            self._plain = PlainHttpClient(
                connect_timeout=endpoint.connect_timeout,
                read_timeout=endpoint.idle_timeout,
                write_timeout=endpoint.idle_timeout,
            )
        else:
            self._client = client or _httpx_client(endpoint)

    async def aclose(self) -> None:
        """Close pooled connections."""
        if self._client is not None:
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
            async with self._post(ep.url(path), body, sent) as response:
                if response.status_code >= 400:
                    raw = await response.aread()
                    error = classify_status(
                        response.status_code,
                        raw.decode("utf-8", "replace"),
                        provider=ep.provider,
                        api_key_env=ep.api_key_env,
                        base_url=ep.base_url,
                    )
                    error.retry_after = parse_retry_after(dict(response.headers), time.time())
                    raise error
                media = response.headers.get("content-type", "").partition(";")[0].strip().lower()
                wrong = not_a_streaming_api(ep.provider, ep.base_url, api, media)
                if media in _WEB_PAGES:
                    raise wrong
                deadline = asyncio.get_running_loop().time() + ep.response_deadline
                received = _Counted(_until(response.aiter_bytes(), deadline, ep.response_deadline))
                any_event = False
                async for event in iter_sse(received.chunks()):
                    any_event = True
                    yield event
                # Bytes but not one event: junk, or a JSON reply from a server that ignores `stream`.
                # An empty event stream stays a network failure (a cut connection), which is retried.
                if not any_event and (received.total or media != "text/event-stream"):
                    raise wrong
        except TransportFailure as exc:
            raise _network_error(ep, exc) from exc

    async def post_json(self, path: str, body: bytes) -> bytes:
        """POST `body` as JSON and return the (non-streamed) reply body; errors as in `events`."""
        ep = self.endpoint
        headers = {"content-type": "application/json", "accept": "application/json", **ep.headers}
        try:
            async with self._post(ep.url(path), body, headers) as response:
                status = response.status_code
                content = await response.aread()
        except TransportFailure as exc:
            raise _network_error(ep, exc) from exc
        if status >= 400:
            raise classify_status(
                status,
                content.decode("utf-8", "replace"),
                provider=ep.provider,
                api_key_env=ep.api_key_env,
                base_url=ep.base_url,
            )
        return bytes(content)

    @contextlib.asynccontextmanager
    async def _post(self, url: str, body: bytes, headers: Mapping[str, str]) -> AsyncIterator[Response]:
        """The response of one POST; transport failures of either client raise `TransportFailure`."""
        if self._plain is not None:
            plain, writer = await self._plain.open("POST", url, body, headers)
            try:
                if plain.status_code not in REDIRECTS or "location" not in plain.headers:
                    yield plain
                    return
            finally:
                writer.close()
            # httpx2 follows redirects (and verifies certificates if one leads to https): from now
            # on it serves this endpoint, starting with this request.
            self._plain = None
            self._client = _httpx_client(self.endpoint)
        assert self._client is not None
        async with _httpx_post(self._client, url, body, headers) as other:
            yield other


class Response(Protocol):
    """What the transport reads of a response, from either client."""

    @property
    def status_code(self) -> int:
        """The HTTP status."""
        ...

    @property
    def headers(self) -> Mapping[str, str]:
        """The headers (lower-case names)."""
        ...

    async def aread(self) -> bytes:
        """The whole body."""
        ...

    def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body as it arrives."""
        ...


def _httpx_client(endpoint: Endpoint) -> httpx2.AsyncClient:
    import httpx2

    from vtcode.providers.tls import verify_for

    return httpx2.AsyncClient(
        timeout=httpx2.Timeout(
            connect=endpoint.connect_timeout,
            read=endpoint.idle_timeout,
            write=endpoint.idle_timeout,
            pool=endpoint.connect_timeout,
        ),
        follow_redirects=True,
        verify=verify_for(endpoint.base_url),
    )


@contextlib.asynccontextmanager
async def _httpx_post(
    client: httpx2.AsyncClient, url: str, body: bytes, headers: Mapping[str, str]
) -> AsyncIterator[Response]:
    import httpx2

    try:
        async with client.stream("POST", url, content=body, headers=headers) as response:
            yield response
    except httpx2.TimeoutException as exc:
        raise TimedOut(type(exc).__name__) from exc
    except httpx2.TransportError as exc:
        raise TransportFailure(str(exc) or type(exc).__name__) from exc


def _network_error(ep: Endpoint, exc: TransportFailure) -> ProviderError:
    """A transport failure naming the endpoint; a refused connection says nothing listens there."""
    refused = isinstance(exc.__cause__ or exc.__context__, ConnectionRefusedError) or (
        "All connection attempts failed" in str(exc) or "Connection refused" in str(exc)
    )
    detail = _detail(exc)
    if isinstance(exc, ReadTimeout):
        # The reader only knows a read timed out; the user needs the gap and the setting behind it.
        detail = (
            f"timed out: nothing received for {ep.idle_timeout:g} s (network.stream_idle_timeout_seconds)"
        )
    return network_error(ep.provider, detail, base_url=ep.base_url, refused=refused)


def _detail(exc: TransportFailure) -> str:
    return f"timed out ({exc})" if isinstance(exc, TimedOut) else str(exc)


# A web page (a proxy's login or error page, a wrong --base-url) is never a stream.
_WEB_PAGES = frozenset({"text/html", "application/xhtml+xml"})


async def _until(chunks: AsyncIterator[bytes], deadline: float, budget: float) -> AsyncIterator[bytes]:
    """The chunks until `deadline` (event-loop time); then `TimedOut`, however busy the stream looks.

    The timeout wraps each read only, never a `yield`: the consumer's own work between chunks is not
    interrupted, and a read blocked past the deadline is cancelled.
    """
    loop = asyncio.get_running_loop()
    iterator = aiter(chunks)
    while True:
        remaining = deadline - loop.time()
        try:
            if remaining <= 0:
                raise TimeoutError
            async with asyncio.timeout(remaining):
                chunk = await anext(iterator)
        except StopAsyncIteration:
            return
        except TimeoutError:
            raise TimedOut(
                f"no complete response within {budget:g} s (network.response_deadline_seconds)"
            ) from None
        yield chunk


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


_DIVERGED = "the retried reply differs from the text already shown; the final answer is the retried one"


async def retrying(
    attempt: Callable[[], AsyncIterator[StreamEvent]],
    policy: RetryPolicy,
    *,
    sleep: Sleep = asyncio.sleep,
    rng: random.Random | None = None,
    notify: Notify | None = None,
) -> AsyncIterator[StreamEvent]:
    """Run `attempt` until it completes, retrying retryable failures before any tool call was shown.

    A failure after text only (answer or reasoning) is retried too, without showing that text twice
    (`stream_replay`). Once a tool call has been yielded the caller may have acted on it; a later
    failure is raised (marked partial) instead of replaying the reply behind the user's back.
    """
    rng = rng or random.Random()
    waited = 0.0
    tries = 0
    shown = ShownOutput()
    told_divergence = False
    while True:
        shown.start_attempt()
        try:
            async for event in attempt():
                passed = shown.pass_on(event)
                if shown.diverged and not told_divergence and notify is not None:
                    told_divergence = True
                    notify(_DIVERGED)
                if passed is not None:
                    yield passed
            return
        except ProviderError as error:
            if shown.committed:
                if error.retryable:
                    raise network_error(error.provider, error.message, partial=True) from error
                raise
            tries += 1
            if not error.retryable:
                raise
            delay = backoff_delay(policy, tries, error.retry_after, rng.random())
            if not may_retry(policy, tries, delay, waited):
                if shown.any and error.retryable:
                    raise network_error(error.provider, error.message, partial=True) from error
                if tries > 1:
                    error.message = f"{error.message} (after {tries - 1} retries)"
                raise
            log.info("retrying %s in %.2fs: %s", error.provider, delay, error.message)
            if notify is not None:
                notify(f"{error.message}; retrying in {delay:.1f}s (attempt {tries + 1})")
            waited += delay
            await sleep(delay)
