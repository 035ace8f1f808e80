"""A small HTTP/1.1 client for plain `http://` endpoints: local servers (Ollama, vLLM, a loopback server).

Importing httpx2 and httpcore2 (with `importlib.metadata`, anyio, idna) costs about a third of the
time from `vtcode exec` to its first request byte. A plain-http endpoint that no proxy variable applies
to needs none of it, so its requests go out through asyncio streams here, byte for byte as httpx2 would
send them (same headers, same order). HTTPS, a proxy, credentials in the URL and redirects stay with
httpx2 (the transport hands a redirected request over to it). The HTTP/1.1 framing (status line,
headers, chunked and content-length bodies, interim responses) is left to h11, the state machine under
httpcore2, which alone imports in a few milliseconds.

One connection per request, closed when the response is read or abandoned: a local server's connect
costs less than keeping and health-checking a pool.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Mapping
from urllib.parse import SplitResult, urlsplit

import h11

# What httpx2 2.16.2 sends by default; kept alike so both paths look the same to a server.
_DEFAULT_HEADERS = (
    ("Accept", "*/*"),
    ("Accept-Encoding", "gzip, deflate"),
    ("Connection", "keep-alive"),
    ("User-Agent", "python-httpx2/2.16.2"),
)
_READ_SIZE = 65_536
# The longest response head (or chunk-size line) accepted, as before h11 parsed them.
_MAX_HEAD_BYTES = 65_536
REDIRECTS = frozenset({301, 302, 303, 307, 308})


class TransportFailure(Exception):
    """A request that failed on the way (connect, write, read); the text names what happened."""


class TimedOut(TransportFailure):
    """No progress within a timeout; the class name (ConnectTimeout, ...) is shown to the user."""


class ConnectTimeout(TimedOut):
    """Connecting took longer than the connect timeout."""


class ReadTimeout(TimedOut):
    """The server was silent for longer than the read timeout."""


class WriteTimeout(TimedOut):
    """Sending the request took longer than the write timeout."""


def plain_http_applies(base_url: str, env: Mapping[str, str]) -> bool:
    """Whether requests to `base_url` may skip httpx2: `http://`, no credentials, no proxy variable set.

    httpx2 honours `http_proxy` / `all_proxy` (any case) from the environment; when one is set the
    request keeps going through httpx2, which applies it (and `no_proxy`) exactly as before.
    """
    parts = urlsplit(base_url)
    if parts.scheme.lower() != "http" or not parts.hostname or "@" in parts.netloc:
        return False
    return not any(k.lower() in ("http_proxy", "all_proxy") and v for k, v in env.items())


class PlainResponse:
    """Status, headers (names lower-cased, repeats joined by ", ") and the decoded body of one response."""

    def __init__(self, status_code: int, headers: dict[str, str], wire: _Wire) -> None:
        self.status_code = status_code
        self.headers = headers
        self._wire = wire

    async def aread(self) -> bytes:
        """The whole (decoded) body."""
        return b"".join([chunk async for chunk in self.aiter_bytes()])

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body as it arrives, with `content-encoding` gzip or deflate undone."""
        decoder = _decoder(self.headers.get("content-encoding", ""))
        async for raw in self._raw_body():
            chunk = decoder.decompress(raw) if decoder is not None else raw
            if chunk:
                yield chunk
        if decoder is not None:
            tail = decoder.flush()
            if tail:
                yield tail

    async def _raw_body(self) -> AsyncIterator[bytes]:
        # h11 knows where the body ends: content-length, chunked (trailers dropped), or the close.
        while not self._wire.done:
            event = await self._wire.next_event()
            if isinstance(event, h11.Data):
                yield bytes(event.data)


class _Wire:
    """One connection's h11 state machine, fed from its stream whenever it needs more bytes."""

    def __init__(self, reader: asyncio.StreamReader, read_timeout: float) -> None:
        self.conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=_MAX_HEAD_BYTES)
        self.headers: dict[str, str] = {}  # the response's, once read: they name the body's framing
        self.done = False  # the response has ended
        self._received = 0  # body bytes so far, named when a content-length body is cut short
        self._closed = False
        self._reader = reader
        self._read_timeout = read_timeout

    async def next_event(self) -> h11.Event:
        """The next event of the response, reading as much as h11 needs to make it out."""
        while True:
            state = self.conn.their_state
            try:
                event = self.conn.next_event()
            except h11.RemoteProtocolError as exc:
                raise _protocol_failure(exc, state, self.headers, self._received, self._closed) from exc
            if isinstance(event, h11.Data):
                self._received += len(event.data)
            self.done = isinstance(event, h11.EndOfMessage)
            if isinstance(event, h11.Event):
                return event
            if event is h11.PAUSED:
                # Only after the end of the response, which the callers stop at.
                raise TransportFailure("the response continued after its end")
            data = await self._read()
            if not data:
                if self.conn.their_state is h11.SEND_RESPONSE:
                    # httpcore2's words for a close before (or inside) the response head.
                    raise TransportFailure("Server disconnected without sending a response.")
                self._closed = True
            self.conn.receive_data(data)

    async def _read(self) -> bytes:
        # `asyncio.timeout`, not `wait_for`: on Python 3.11 `wait_for` returns the bytes and drops a cancel
        # (an interrupt) that lands as they arrive, so the turn streams on.
        try:
            async with asyncio.timeout(self._read_timeout):
                return await self._reader.read(_READ_SIZE)
        except TimeoutError as exc:
            raise ReadTimeout("ReadTimeout") from exc
        except OSError as exc:
            raise TransportFailure(str(exc) or type(exc).__name__) from exc


def _protocol_failure(
    exc: h11.RemoteProtocolError,
    state: object,
    headers: Mapping[str, str],
    received: int,
    closed: bool,
) -> TransportFailure:
    """A response h11 rejects, described; a body cut short is named in httpx2's words."""
    if closed and state is h11.SEND_BODY:
        cut = "peer closed connection without sending complete message body"
        if "chunked" in headers.get("transfer-encoding", "").lower():
            return TransportFailure(f"{cut}: incomplete chunked read")
        expected = headers.get("content-length")
        return TransportFailure(f"{cut}: received {received} bytes, expected {expected}")
    if exc.error_status_hint == 431:
        # h11 buffers one incomplete event at most: the head, or a chunk-size line.
        what = "response head" if state is h11.SEND_RESPONSE else "chunk-size line"
        return TransportFailure(f"the {what} is too long")
    # h11 quotes the offending line, which a broken server may make long.
    return TransportFailure(f"malformed response: {str(exc)[:200]}")


def _decoder(encoding: str) -> zlib._Decompress | None:
    # httpx2 decodes the encodings it asks for: gzip and deflate (zlib-wrapped, or raw as some servers send).
    name = encoding.strip().lower()
    if name == "gzip":
        return zlib.decompressobj(zlib.MAX_WBITS | 16)
    if name == "deflate":
        return _Deflate()  # type: ignore[return-value]
    return None


class _Deflate:
    """`deflate` as zlib data, falling back to a raw deflate stream when the first bytes say so."""

    def __init__(self) -> None:
        self._first = True
        self._inner = zlib.decompressobj()

    def decompress(self, data: bytes) -> bytes:
        if self._first:
            self._first = False
            try:
                return self._inner.decompress(data)
            except zlib.error:
                self._inner = zlib.decompressobj(-zlib.MAX_WBITS)
        return self._inner.decompress(data)

    def flush(self) -> bytes:
        return self._inner.flush()


class PlainHttpClient:
    """Sends one request per connection to an `http://` URL (see `plain_http_applies`)."""

    def __init__(self, *, connect_timeout: float, read_timeout: float, write_timeout: float) -> None:
        self._connect_timeout = connect_timeout
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout

    async def open(
        self, method: str, url: str, body: bytes, headers: Mapping[str, str]
    ) -> tuple[PlainResponse, asyncio.StreamWriter]:
        """Send the request and read the response head; the caller reads the body, then closes the writer."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port or 80
        try:
            async with asyncio.timeout(self._connect_timeout):
                reader, writer = await asyncio.open_connection(host, port)
        except TimeoutError as exc:
            raise ConnectTimeout("ConnectTimeout") from exc
        except OSError as exc:
            # httpx2 (anyio) says the same for a refused or unreachable address.
            raise TransportFailure("All connection attempts failed") from exc
        try:
            wire = _Wire(reader, self._read_timeout)
            writer.write(_request_bytes(wire.conn, method, parts, headers, body))
            try:
                async with asyncio.timeout(self._write_timeout):
                    await writer.drain()
            except TimeoutError as exc:
                raise WriteTimeout("WriteTimeout") from exc
            except OSError as exc:
                raise TransportFailure(str(exc) or type(exc).__name__) from exc
            response = await _response_head(wire)
        except BaseException:
            writer.close()
            raise
        return response, writer


async def _response_head(wire: _Wire) -> PlainResponse:
    while True:
        event = await wire.next_event()
        # Interim responses (100 Continue, 103 Early Hints) come before the real one.
        if isinstance(event, h11.Response):
            headers = wire.headers
            for raw_name, raw_value in event.headers:
                name, value = raw_name.decode("latin-1"), raw_value.decode("latin-1")
                headers[name] = f"{headers[name]}, {value}" if name in headers else value
            return PlainResponse(event.status_code, headers, wire)


def _request_bytes(
    conn: h11.Connection, method: str, split: SplitResult, headers: Mapping[str, str], body: bytes
) -> bytes:
    """The request as httpx2 would send it: Host, its default headers, the caller's, Content-Length."""
    target = (split.path or "/") + (f"?{split.query}" if split.query else "")
    host = split.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    if split.port is not None and split.port != 80:
        host = f"{host}:{split.port}"
    given = {name.lower() for name in headers}
    # A Host given by the caller replaces the URL's, as in httpx2 (h11 refuses two).
    fields = [] if "host" in given else [("Host", host)]
    fields.extend((name, value) for name, value in _DEFAULT_HEADERS if name.lower() not in given)
    fields.extend(headers.items())
    if "content-length" not in given:
        fields.append(("Content-Length", str(len(body))))
    try:
        request = h11.Request(
            method=method.encode("latin-1"),
            target=target.encode("latin-1"),
            headers=[(name.encode("latin-1"), value.encode("latin-1")) for name, value in fields],
        )
        wire = conn.send(request) or b""
        if body:
            wire += conn.send(h11.Data(data=body)) or b""
        return wire + (conn.send(h11.EndOfMessage()) or b"")
    except (h11.LocalProtocolError, UnicodeEncodeError) as exc:
        raise _refused(fields, exc) from exc


def _refused(fields: list[tuple[str, str]], exc: Exception) -> TransportFailure:
    """Why h11 refused the request, naming a header at fault but not its value (an API key, maybe)."""
    for name, value in fields:
        host = [] if name.lower() == "host" else [(b"Host", b"h")]
        try:
            h11.Request(
                method=b"GET",
                target=b"/",
                headers=[*host, (name.encode("latin-1"), value.encode("latin-1"))],
            )
        except (h11.LocalProtocolError, UnicodeEncodeError):
            return TransportFailure(
                f"invalid request: HTTP/1.1 does not allow the header {name!r} as given "
                "(a line break, a space at either end, or a character outside Latin-1?)"
            )
    return TransportFailure(f"invalid request: {exc}")
