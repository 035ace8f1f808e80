"""The network half of `web_fetch`: resolve, check, connect to the checked address, follow redirects.

The name is resolved here, every address it gives is checked (`core.web_address`), and the socket is
opened to one of those very addresses, with the name kept for the `Host` header and TLS (SNI and the
certificate check): there is no second lookup a DNS server could answer differently (rebinding). No
proxy variable applies: a proxy would do its own lookup. Each redirect is checked like the first URL;
one to another host is not followed but returned, so that host gets its own approval.

HTTP/1.1 framing is h11's (as in `plain_http`); one connection per request, closed after it.
"""

from __future__ import annotations

import asyncio
import socket
import zlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import h11

from vtcode.core.web_address import (
    Refused,
    WebTarget,
    address_refusal,
    https_first,
    literal_refusal,
    parse_address,
    parse_url,
    redirect_target,
)
from vtcode.core.web_content import content_type_refusal

# host, port -> the addresses the name stands for (tests pass their own; no connection is made by it).
Resolver = Callable[[str, int], Awaitable[Sequence[str]]]
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_READ_SIZE = 256 * 1024
_MAX_HEAD_BYTES = 64 * 1024


async def system_resolver(host: str, port: int) -> Sequence[str]:
    """The addresses the system resolver gives for `host` (TCP), in its order, without repeats."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True)
class FetchLimits:
    """How much and how long one fetch may take."""

    max_bytes: int = 10 * 1024 * 1024
    max_redirects: int = 5
    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    deadline: float = 120.0
    user_agent: str = "vtcode-web-fetch/1 (+https://github.com/vtcode)"


_LIMITS = FetchLimits()


@dataclass(frozen=True)
class Page:
    """A fetched response: the final URL, its content type and body (cut at the byte cap when `cut`).

    `moved_to` is set instead of a body when the page redirects to another host (not followed).
    """

    url: str
    status: int
    content_type: str
    body: bytes
    cut: bool = False
    notes: tuple[str, ...] = ()
    moved_to: str | None = None


class FetchFailed(Exception):
    """A fetch that was refused or failed; the message is a sentence for the model."""


class _Unreachable(FetchFailed):
    """No connection could be made (the https-first attempt falls back to http on this)."""


async def fetch_page(
    url: str, *, resolver: Resolver = system_resolver, limits: FetchLimits = _LIMITS
) -> Page:
    """GET `url` under the SSRF checks and `limits`; raises `FetchFailed` with the reason."""
    target = _checked(parse_url(url))
    try:
        async with asyncio.timeout(limits.deadline):
            return await _fetch(target, resolver, limits)
    except TimeoutError:
        raise FetchFailed(f"fetching {target.url} took longer than {limits.deadline:g} s") from None


def _checked(parsed: WebTarget | Refused) -> WebTarget:
    if isinstance(parsed, Refused):
        raise FetchFailed(parsed.reason)
    refused = literal_refusal(parsed)
    if refused is not None:
        raise FetchFailed(f"{parsed.url} is refused: {refused.reason}")
    return parsed


async def _fetch(target: WebTarget, resolver: Resolver, limits: FetchLimits) -> Page:
    notes: list[str] = []
    upgraded = https_first(target)
    if upgraded is not None:
        try:
            return await _follow(upgraded, resolver, limits, notes)
        except _Unreachable as exc:
            notes.append(f"{upgraded.url} could not be reached ({exc}); fetched over plain http instead")
    return await _follow(target, resolver, limits, notes)


async def _follow(target: WebTarget, resolver: Resolver, limits: FetchLimits, notes: list[str]) -> Page:
    for _ in range(limits.max_redirects + 1):
        page = await _get(target, resolver, limits)
        if page.moved_to is None:
            return Page(page.url, page.status, page.content_type, page.body, page.cut, tuple(notes))
        following = redirect_target(target, page.moved_to)
        if isinstance(following, Refused):
            raise FetchFailed(following.reason)
        if following.host != target.host:
            note = f"{target.url} redirects to another host: {following.url} (not followed)"
            return Page(target.url, page.status, "", b"", notes=(*notes, note), moved_to=following.url)
        target = following
    raise FetchFailed(f"more than {limits.max_redirects} redirects, last to {target.url}")


async def _addresses(target: WebTarget, resolver: Resolver, limits: FetchLimits) -> list[str]:
    literal = target.literal
    if literal is not None:
        return [str(literal)]
    try:
        async with asyncio.timeout(limits.connect_timeout):
            found = list(await resolver(target.host, target.port))
    except (OSError, TimeoutError) as exc:
        raise FetchFailed(f"{target.host} could not be resolved: {exc or type(exc).__name__}") from None
    if not found:
        raise FetchFailed(f"{target.host} has no address")
    for text in found:
        address = parse_address(text)
        why = "not an IP address" if address is None else address_refusal(address)
        if why is not None:
            # One bad answer refuses the name: a resolver mixing in private addresses is an attack.
            raise FetchFailed(f"{target.url} is refused: {target.host} resolves to {text}, {why}")
    return found


async def _connect(
    target: WebTarget, addresses: Sequence[str], limits: FetchLimits
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    import ssl  # only https pays for it

    tls = ssl.create_default_context() if target.scheme == "https" else None
    failures: list[str] = []
    for address in addresses:
        try:
            async with asyncio.timeout(limits.connect_timeout):
                return await asyncio.open_connection(
                    address, target.port, ssl=tls, server_hostname=target.host if tls else None
                )
        except (OSError, TimeoutError) as exc:
            failures.append(f"{address}: {exc or type(exc).__name__}")
    raise _Unreachable(f"could not connect to {target.host} ({'; '.join(failures)})")


async def _get(target: WebTarget, resolver: Resolver, limits: FetchLimits) -> Page:
    reader, writer = await _connect(target, await _addresses(target, resolver, limits), limits)
    try:
        conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=_MAX_HEAD_BYTES)
        writer.write(conn.send(_request(target, limits)) or b"")
        writer.write(conn.send(h11.EndOfMessage()) or b"")
        await writer.drain()
        response = await _head(conn, reader, limits)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in response.headers}
        location = headers.get("location")
        if response.status_code in _REDIRECTS and location:
            return Page(target.url, response.status_code, "", b"", moved_to=location)
        if response.status_code >= 400:
            raise FetchFailed(
                f"{target.url} answered HTTP {response.status_code} {response.reason.decode('latin-1')}"
            )
        content_type = headers.get("content-type", "")
        refused = content_type_refusal(content_type)
        if refused is not None:
            raise FetchFailed(f"{target.url}: {refused}")
        body, cut = await _body(conn, reader, headers.get("content-encoding", ""), limits)
        return Page(target.url, response.status_code, content_type, body, cut)
    except (OSError, h11.ProtocolError) as exc:
        raise FetchFailed(f"fetching {target.url} failed: {exc or type(exc).__name__}") from None
    finally:
        writer.close()


def _request(target: WebTarget, limits: FetchLimits) -> h11.Request:
    default = 443 if target.scheme == "https" else 80
    host = f"[{target.host}]" if ":" in target.host else target.host
    if target.port != default:
        host = f"{host}:{target.port}"
    headers = [
        ("Host", host),
        ("User-Agent", limits.user_agent),
        ("Accept", "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5"),
        ("Accept-Encoding", "gzip"),
        ("Connection", "close"),
    ]
    return h11.Request(method="GET", target=target.target.encode("ascii", "replace"), headers=headers)


async def _more(conn: h11.Connection, reader: asyncio.StreamReader, limits: FetchLimits) -> None:
    try:
        async with asyncio.timeout(limits.read_timeout):
            conn.receive_data(await reader.read(_READ_SIZE))
    except TimeoutError:
        raise FetchFailed(f"the server sent nothing for {limits.read_timeout:g} s") from None


async def _head(conn: h11.Connection, reader: asyncio.StreamReader, limits: FetchLimits) -> h11.Response:
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            await _more(conn, reader, limits)
        elif isinstance(event, h11.Response):
            return event
        elif isinstance(event, h11.ConnectionClosed):
            raise FetchFailed("the server closed the connection without answering")


async def _body(
    conn: h11.Connection, reader: asyncio.StreamReader, encoding: str, limits: FetchLimits
) -> tuple[bytes, bool]:
    """The (decoded) body, stopped once it passes `limits.max_bytes`; True when it was cut there."""
    encoding = encoding.strip().lower()
    if encoding not in ("", "identity", "gzip", "x-gzip"):
        raise FetchFailed(
            f"the server sent a body in the `{encoding}` encoding, which web_fetch does not decode"
        )
    gunzip = zlib.decompressobj(16 + zlib.MAX_WBITS) if encoding.endswith("gzip") else None
    chunks: list[bytes] = []
    size = 0
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            await _more(conn, reader, limits)
            continue
        if isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
            break
        if not isinstance(event, h11.Data):
            continue
        room = limits.max_bytes - size + 1
        try:
            # The cap applies to the decoded text too: a small gzip body can expand a thousandfold.
            data = gunzip.decompress(bytes(event.data), room) if gunzip else bytes(event.data)
        except zlib.error as exc:
            raise FetchFailed(f"the server's gzip body is corrupt: {exc}") from None
        chunks.append(data)
        size += len(data)
        if size > limits.max_bytes:
            return b"".join(chunks)[: limits.max_bytes], True
    return b"".join(chunks), False
