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
from vtcode.providers.plain_http import PlainHttpClient, TransportFailure, plain_http_applies

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
        (gzip.compress(SSE * 3, mtime=0), True, "gzip"),
        (zlib.compress(SSE * 3), False, "deflate"),
    ],
    # Readable ids that are the same in every pytest-xdist worker (a gzip header carries a timestamp).
    ids=["content-length", "chunked", "chunked-gzip", "content-length-deflate"],
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
        with pytest.raises(
            ProviderError,
            match=r"timed out: nothing received for 0.2 s \(network.stream_idle_timeout_seconds\)",
        ):
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


def _fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and decoded body of one POST through the plain client."""

    async def run() -> tuple[int, dict[str, str], bytes]:
        client = PlainHttpClient(connect_timeout=5.0, read_timeout=5.0, write_timeout=5.0)
        response, writer = await client.open("POST", url, b"{}", {})
        try:
            return response.status_code, response.headers, await response.aread()
        finally:
            writer.close()

    return asyncio.run(run())


def _reply(raw: bytes) -> Answer:
    return lambda _request: raw


@pytest.mark.parametrize(
    "head",
    [
        b"HTTP/1.1 abc OK\r\ncontent-length: 0\r\n\r\n",
        b"SPDY/3 200 OK\r\ncontent-length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nno colon in this line\r\ncontent-length: 0\r\n\r\n",
    ],
    ids=["status-not-a-number", "not-http", "header-without-colon"],
)
def test_a_malformed_response_head_is_a_transport_failure(
    serve: Callable[[Answer], RawServer], head: bytes
) -> None:
    server = serve(_reply(head))
    with pytest.raises(TransportFailure, match=r"^malformed response: "):
        _fetch(server.url)


def test_a_malformed_response_is_quoted_only_in_part(serve: Callable[[Answer], RawServer]) -> None:
    server = serve(_reply(b"HTTP/1.1 200 " + b"x" * 20_000 + b"\r\nbroken header line\r\n\r\n"))
    with pytest.raises(TransportFailure, match=r"^malformed response: ") as caught:
        _fetch(server.url)
    assert len(str(caught.value)) < 300


def test_a_malformed_head_reaches_the_user_as_a_network_error(
    serve: Callable[[Answer], RawServer],
) -> None:
    server = serve(_reply(b"HTTP/1.1 abc OK\r\n\r\n"))
    with pytest.raises(ProviderError, match="malformed response"):
        asyncio.run(_events(SseTransport(_endpoint(server.url))))


def test_an_endless_response_head_is_refused(serve: Callable[[Answer], RawServer]) -> None:
    server = serve(_reply(b"HTTP/1.1 200 OK\r\n" + b"x-filler: aaaaaaaa\r\n" * 20_000 + b"\r\n"))
    with pytest.raises(TransportFailure, match=r"^the response head is too long$"):
        _fetch(server.url)


def test_chunked_trailers_are_read_past_and_dropped(serve: Callable[[Answer], RawServer]) -> None:
    server = serve(
        _reply(
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
            b"5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nx-checksum: abc\r\nx-more: 1\r\n\r\n"
        )
    )
    status, headers, body = _fetch(server.url)
    assert (status, body) == (200, b"hello world")
    assert "x-checksum" not in headers


def test_interim_responses_before_the_response_are_skipped(
    serve: Callable[[Answer], RawServer],
) -> None:
    server = serve(
        _reply(
            b"HTTP/1.1 100 Continue\r\n\r\n"
            b"HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n"
            b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\nok"
        )
    )
    status, headers, body = _fetch(server.url)
    assert (status, body) == (201, b"ok")
    assert "link" not in headers


def test_interim_responses_are_skipped_on_the_stream_path(
    serve: Callable[[Answer], RawServer],
) -> None:
    server = serve(lambda request: b"HTTP/1.1 100 Continue\r\n\r\n" + _stream(SSE * 2, chunked=True)(request))
    assert asyncio.run(_events(SseTransport(_endpoint(server.url)))) == ["{}"] * 2


def test_header_names_are_lower_cased_and_repeats_joined(
    serve: Callable[[Answer], RawServer],
) -> None:
    server = serve(
        _reply(
            b"HTTP/1.1 200 OK\r\nX-Thing: one\r\nContent-Type:text/plain\r\nx-thing: two\r\n"
            b"Content-Length: 0\r\n\r\n"
        )
    )
    _status, headers, _body = _fetch(server.url)
    assert headers == {"x-thing": "one, two", "content-type": "text/plain", "content-length": "0"}


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n10\r\nfirst half",
            "peer closed connection without sending complete message body: incomplete chunked read",
        ),
        (
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4\r\nabcd\r\n1",
            "peer closed connection without sending complete message body: incomplete chunked read",
        ),
        (
            b"HTTP/1.1 200 OK\r\ncontent-length: 20\r\n\r\nhello",
            "peer closed connection without sending complete message body: received 5 bytes, expected 20",
        ),
        (b"HTTP/1.1 200 OK\r\ncontent-le", "Server disconnected without sending a response."),
    ],
    ids=["inside-a-chunk", "inside-a-chunk-size", "short-content-length", "inside-the-head"],
)
def test_a_connection_closed_mid_response_names_what_was_missing(
    serve: Callable[[Answer], RawServer], reply: bytes, message: str
) -> None:
    server = serve(_reply(reply))
    with pytest.raises(TransportFailure) as caught:
        _fetch(server.url)
    assert str(caught.value) == message


def test_a_malformed_chunk_is_a_transport_failure(serve: Callable[[Answer], RawServer]) -> None:
    server = serve(_reply(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"))
    with pytest.raises(TransportFailure, match=r"^malformed response: "):
        _fetch(server.url)


@pytest.mark.parametrize(
    ("encoding", "encoded"),
    [
        ("gzip", gzip.compress(b"x" * 100_000 + b"end", mtime=0)),
        ("deflate", zlib.compress(b"x" * 100_000 + b"end")),
        # Some servers send `deflate` as a raw deflate stream, without the zlib wrapper.
        ("deflate", zlib.compress(b"x" * 100_000 + b"end", wbits=-zlib.MAX_WBITS)),
    ],
    ids=["gzip", "zlib-deflate", "raw-deflate"],
)
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_an_encoded_body_is_decoded(
    serve: Callable[[Answer], RawServer], encoding: str, encoded: bytes, chunked: bool
) -> None:
    head = f"HTTP/1.1 200 OK\r\ncontent-encoding: {encoding}\r\n".encode()
    if chunked:
        framed = b"".join(
            b"%x\r\n%s\r\n" % (len(encoded[i : i + 7]), encoded[i : i + 7]) for i in range(0, len(encoded), 7)
        )
        reply = head + b"transfer-encoding: chunked\r\n\r\n" + framed + b"0\r\n\r\n"
    else:
        reply = head + b"content-length: %d\r\n\r\n" % len(encoded) + encoded
    server = serve(_reply(reply))
    assert _fetch(server.url)[2] == b"x" * 100_000 + b"end"


def test_a_body_without_length_after_an_http_1_0_head_ends_at_the_close(
    serve: Callable[[Answer], RawServer],
) -> None:
    server = serve(_reply(b"HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil the end"))
    assert _fetch(server.url)[2] == b"until the end"


@pytest.mark.parametrize(
    "value",
    ["Bearer sk-secret\n", " Bearer sk-secret", "Bearer sk-secret\u2019"],
    ids=["newline", "space", "non-latin-1"],
)
def test_a_header_http_forbids_is_refused_by_name_without_its_value(value: str) -> None:
    async def run() -> None:
        client = PlainHttpClient(connect_timeout=5.0, read_timeout=5.0, write_timeout=5.0)
        await client.open("POST", url, b"{}", {"Authorization": value})

    with socket.create_server(("127.0.0.1", 0)) as listener:
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
        with pytest.raises(TransportFailure) as caught:
            asyncio.run(run())
    message = str(caught.value)
    assert message.startswith("invalid request: ")
    assert "'Authorization'" in message
    assert "secret" not in message


def test_a_host_header_from_the_caller_replaces_the_urls_as_in_httpx2(
    serve: Callable[[Answer], RawServer],
) -> None:
    server = serve(_stream(SSE))

    def endpoint() -> Endpoint:
        return Endpoint(
            provider="local", base_url=server.url, headers={"Host": "models.internal"}, plain_http=True
        )

    plain = SseTransport(endpoint())
    via_httpx = SseTransport(endpoint(), httpx2.AsyncClient())
    assert asyncio.run(_events(plain)) == asyncio.run(_events(via_httpx)) == ["{}"]
    assert server.requests[0] == server.requests[1]
    assert server.requests[0].count(b"\r\nHost: ") == 1
