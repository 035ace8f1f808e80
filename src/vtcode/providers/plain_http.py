"""A small HTTP/1.1 client for plain `http://` endpoints: local servers (Ollama, vLLM, a loopback server).

Importing httpx2 and httpcore2 (with `importlib.metadata`, anyio, h11, idna) costs about a third of the
time from `vtcode exec` to its first request byte. A plain-http endpoint that no proxy variable applies
to needs none of it, so its requests go out through asyncio streams here, byte for byte as httpx2 would
send them (same headers, same order). HTTPS, a proxy, credentials in the URL and redirects stay with
httpx2 (the transport hands a redirected request over to it).

One connection per request, closed when the response is read or abandoned: a local server's connect
costs less than keeping and health-checking a pool.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Mapping
from urllib.parse import SplitResult, urlsplit

# What httpx2 2.16.2 sends by default; kept alike so both paths look the same to a server.
_DEFAULT_HEADERS = (
    ("Accept", "*/*"),
    ("Accept-Encoding", "gzip, deflate"),
    ("Connection", "keep-alive"),
    ("User-Agent", "python-httpx2/2.16.2"),
)
_READ_SIZE = 65_536
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

    def __init__(
        self,
        status_code: int,
        headers: dict[str, str],
        reader: asyncio.StreamReader,
        read_timeout: float,
    ) -> None:
        self.status_code = status_code
        self.headers = headers
        self._reader = reader
        self._read_timeout = read_timeout

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
        if self.status_code in (204, 304) or 100 <= self.status_code < 200:
            return
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            async for chunk in self._chunked():
                yield chunk
            return
        length = self.headers.get("content-length")
        if length is not None:
            try:
                remaining = int(length.split(",")[0].strip())
            except ValueError as exc:
                raise TransportFailure(f"invalid content-length {length!r}") from exc
            expected = remaining
            while remaining > 0:
                chunk = await self._read(min(remaining, _READ_SIZE))
                if not chunk:
                    raise TransportFailure(
                        "peer closed connection without sending complete message body: "
                        f"received {expected - remaining} bytes, expected {expected}"
                    )
                remaining -= len(chunk)
                yield chunk
            return
        while chunk := await self._read(_READ_SIZE):
            yield chunk

    async def _chunked(self) -> AsyncIterator[bytes]:
        while True:
            line = await self._line()
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError as exc:
                raise TransportFailure(f"malformed chunk size {line[:40]!r}") from exc
            if size == 0:
                # Trailers, up to the blank line.
                while (await self._line()).strip():
                    pass
                return
            remaining = size
            while remaining > 0:
                chunk = await self._read(min(remaining, _READ_SIZE))
                if not chunk:
                    raise _incomplete_chunked()
                remaining -= len(chunk)
                yield chunk
            if (await self._line()).strip():
                raise TransportFailure("malformed chunked encoding: no line end after a chunk")

    async def _line(self) -> bytes:
        try:
            line = await asyncio.wait_for(self._reader.readuntil(b"\n"), self._read_timeout)
        except asyncio.IncompleteReadError as exc:
            raise _incomplete_chunked() from exc
        except asyncio.LimitOverrunError as exc:
            raise TransportFailure("malformed chunked encoding: line too long") from exc
        except TimeoutError as exc:
            raise ReadTimeout("ReadTimeout") from exc
        except OSError as exc:
            raise TransportFailure(str(exc) or type(exc).__name__) from exc
        return line

    async def _read(self, size: int) -> bytes:
        try:
            return await asyncio.wait_for(self._reader.read(size), self._read_timeout)
        except TimeoutError as exc:
            raise ReadTimeout("ReadTimeout") from exc
        except OSError as exc:
            raise TransportFailure(str(exc) or type(exc).__name__) from exc


def _incomplete_chunked() -> TransportFailure:
    return TransportFailure(
        "peer closed connection without sending complete message body: incomplete chunked read"
    )


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
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, limit=_MAX_HEAD_BYTES), self._connect_timeout
            )
        except TimeoutError as exc:
            raise ConnectTimeout("ConnectTimeout") from exc
        except OSError as exc:
            # httpx2 (anyio) says the same for a refused or unreachable address.
            raise TransportFailure("All connection attempts failed") from exc
        try:
            writer.write(_head(method, parts, headers, len(body)) + body)
            try:
                await asyncio.wait_for(writer.drain(), self._write_timeout)
            except TimeoutError as exc:
                raise WriteTimeout("WriteTimeout") from exc
            except OSError as exc:
                raise TransportFailure(str(exc) or type(exc).__name__) from exc
            response = await self._response_head(reader)
        except BaseException:
            writer.close()
            raise
        return response, writer

    async def _response_head(self, reader: asyncio.StreamReader) -> PlainResponse:
        while True:
            try:
                raw = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self._read_timeout)
            except asyncio.IncompleteReadError as exc:
                raise TransportFailure("Server disconnected without sending a response.") from exc
            except asyncio.LimitOverrunError as exc:
                raise TransportFailure("the response head is too long") from exc
            except TimeoutError as exc:
                raise ReadTimeout("ReadTimeout") from exc
            except OSError as exc:
                raise TransportFailure(str(exc) or type(exc).__name__) from exc
            status, headers = _parse_head(raw)
            # Interim responses (100 Continue, 103 Early Hints) come before the real one.
            if not 100 <= status < 200:
                return PlainResponse(status, headers, reader, self._read_timeout)


def _head(method: str, split: SplitResult, headers: Mapping[str, str], length: int) -> bytes:
    target = (split.path or "/") + (f"?{split.query}" if split.query else "")
    host = split.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    if split.port is not None and split.port != 80:
        host = f"{host}:{split.port}"
    lines = [f"{method} {target} HTTP/1.1", f"Host: {host}"]
    given = {name.lower() for name in headers}
    lines.extend(f"{name}: {value}" for name, value in _DEFAULT_HEADERS if name.lower() not in given)
    lines.extend(f"{name}: {value}" for name, value in headers.items())
    if "content-length" not in given:
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _parse_head(raw: bytes) -> tuple[int, dict[str, str]]:
    text = raw.decode("latin-1")
    status_line, _, rest = text.partition("\r\n")
    fields = status_line.split(" ", 2)
    if len(fields) < 2 or not fields[0].startswith("HTTP/") or not fields[1].isdigit():
        raise TransportFailure(f"malformed response status line {status_line[:80]!r}")
    headers: dict[str, str] = {}
    for line in rest.split("\r\n"):
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise TransportFailure(f"malformed response header {line[:80]!r}")
        key = name.strip().lower()
        value = value.strip()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return int(fields[1]), headers
