"""Plain-http endpoints are reached without httpx2, with the same request bytes and the same results."""

from __future__ import annotations

import asyncio
import gzip
import socket
import threading
import zlib
from collections.abc import Callable, Iterator

import httpx2
import pytest

from vtcode.protocol.errors import ProviderError
from vtcode.providers.http import Endpoint, SseTransport
from vtcode.providers.plain_http import plain_http_applies

Answer = Callable[[bytes], bytes]


class RawServer:
    """A loopback server that records each request's bytes and answers with what `answer` returns."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.requests: list[bytes] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The base URL of this server."""
        return f"http://127.0.0.1:{self.port}/v1"

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                length = next(
                    (
                        int(line.split(b":")[1])
                        for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length")
                    ),
                    0,
                )
                while len(body) < length:
                    body += conn.recv(65536)
                self.requests.append(head + b"\r\n\r\n" + body)
                reply = self.answer(data)
                if reply:
                    conn.sendall(reply)

    def close(self) -> None:
        """Stop accepting."""
        self._listener.close()


@pytest.fixture
def serve() -> Iterator[Callable[[Answer], RawServer]]:
    servers: list[RawServer] = []

    def start(answer: Answer) -> RawServer:
        server = RawServer(answer)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


SSE = b"data: {}\n\n"


def _stream(body: bytes, *, chunked: bool = False, encoding: str = "") -> Answer:
    def answer(_request: bytes) -> bytes:
        head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
        if encoding:
            head += f"content-encoding: {encoding}\r\n".encode()
        if chunked:
            half = len(body) // 2
            parts = [body[:half], body[half:]]
            framed = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts if p) + b"0\r\n\r\n"
            return head + b"transfer-encoding: chunked\r\n\r\n" + framed
        return head + b"content-length: %d\r\n\r\n" % len(body) + body

    return answer


async def _events(transport: SseTransport) -> list[str]:
    return [event.data async for event in transport.events("chat/completions", b'{"a":1}', api="test")]


def _endpoint(url: str, *, idle_timeout: float = 300.0) -> Endpoint:
    return Endpoint(
        provider="local",
        base_url=url,
        headers={"authorization": "Bearer k"},
        idle_timeout=idle_timeout,
        plain_http=True,
    )


def test_requests_are_byte_identical_to_httpx2(serve: Callable[[Answer], RawServer]) -> None:
    server = serve(_stream(SSE))
    plain = SseTransport(_endpoint(server.url))
    via_httpx = SseTransport(_endpoint(server.url), httpx2.AsyncClient())
    assert asyncio.run(_events(plain)) == asyncio.run(_events(via_httpx)) == ["{}"]
    assert server.requests[0] == server.requests[1]
    assert server.requests[0].startswith(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:")


@pytest.mark.parametrize(
    ("body", "chunked", "encoding"),
    [
        (SSE * 3, False, ""),
        (SSE * 3, True, ""),
        (gzip.compress(SSE * 3), True, "gzip"),
        (zlib.compress(SSE * 3), False, "deflate"),
    ],
)
def test_framings_and_encodings_decode(
    serve: Callable[[Answer], RawServer], body: bytes, chunked: bool, encoding: str
) -> None:
    server = serve(_stream(body, chunked=chunked, encoding=encoding))
    assert asyncio.run(_events(SseTransport(_endpoint(server.url)))) == ["{}"] * 3


def test_a_body_until_close_is_read_to_the_end(serve: Callable[[Answer], RawServer]) -> None:
    server = serve(lambda _r: b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n" + SSE * 2)
    assert asyncio.run(_events(SseTransport(_endpoint(server.url)))) == ["{}"] * 2


def test_a_silent_disconnect_is_a_network_error(serve: Callable[[Answer], RawServer]) -> None:
    server = serve(lambda _r: b"")
    with pytest.raises(ProviderError, match="Server disconnected without sending a response"):
        asyncio.run(_events(SseTransport(_endpoint(server.url))))


def test_a_cut_chunked_body_is_a_network_error(serve: Callable[[Answer], RawServer]) -> None:
    server = serve(
        lambda _r: (
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
            b"20\r\ndata: {}\n\n"
        )
    )
    with pytest.raises(ProviderError, match="incomplete chunked read"):
        asyncio.run(_events(SseTransport(_endpoint(server.url))))


def test_a_refused_connection_is_a_network_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ProviderError, match="All connection attempts failed"):
        asyncio.run(_events(SseTransport(_endpoint(f"http://127.0.0.1:{port}/v1"))))


def test_a_silent_server_times_out(serve: Callable[[Answer], RawServer]) -> None:
    gate = threading.Event()

    def hang(_r: bytes) -> bytes:
        gate.wait(5)
        return b""

    server = serve(hang)
    try:
        with pytest.raises(ProviderError, match=r"timed out \(ReadTimeout\)"):
            asyncio.run(_events(SseTransport(_endpoint(server.url, idle_timeout=0.2))))
    finally:
        gate.set()


def test_an_error_status_is_classified_with_its_retry_after(serve: Callable[[Answer], RawServer]) -> None:
    body = b'{"error": {"message": "slow down"}}'
    server = serve(
        lambda _r: (
            b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nRetry-After: 7\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body)
        )
    )
    with pytest.raises(ProviderError) as caught:
        asyncio.run(_events(SseTransport(_endpoint(server.url))))
    assert caught.value.retry_after == 7.0
    assert "slow down" in caught.value.message


def test_a_redirect_is_followed_by_httpx2(serve: Callable[[Answer], RawServer]) -> None:
    target = serve(_stream(SSE))
    origin = serve(
        lambda _r: (
            f"HTTP/1.1 307 Temporary Redirect\r\nlocation: {target.url}/chat/completions\r\n"
            "content-length: 0\r\n\r\n".encode()
        )
    )
    transport = SseTransport(_endpoint(origin.url))
    assert asyncio.run(_events(transport)) == ["{}"]
    assert target.requests[0].endswith(b'{"a":1}')


def test_post_json_reads_the_whole_reply(serve: Callable[[Answer], RawServer]) -> None:
    body = b'{"ok": true}'
    server = serve(
        lambda _r: (
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s"
            % (len(body), body)
        )
    )
    assert asyncio.run(SseTransport(_endpoint(server.url)).post_json("compact", b"{}")) == body


def test_only_proxy_free_plain_http_skips_httpx2() -> None:
    assert plain_http_applies("http://127.0.0.1:8000/v1", {})
    assert plain_http_applies("http://localhost:11434/v1", {"HTTPS_PROXY": "http://proxy:3128"})
    assert not plain_http_applies("https://api.openai.com/v1", {})
    assert not plain_http_applies("http://127.0.0.1:8000/v1", {"HTTP_PROXY": "http://proxy:3128"})
    assert not plain_http_applies("http://127.0.0.1:8000/v1", {"all_proxy": "socks5://proxy:1080"})
    assert not plain_http_applies("http://user:pw@127.0.0.1:8000/v1", {})


def test_an_endpoint_not_marked_plain_uses_httpx2() -> None:
    transport = SseTransport(Endpoint(provider="x", base_url="http://127.0.0.1:1/v1"))
    assert isinstance(transport._client, httpx2.AsyncClient)
