"""A private network for `web_fetch` tests: a thread in its own network namespace, and a small web server.

`web_fetch` refuses loopback and private addresses, so its tests cannot reach a server on 127.0.0.1.
Instead the test runs on a thread that has unshared its network namespace: only `lo` exists there, up,
with the public-looking addresses the test names added to it (e.g. 93.184.216.34). A server bound to
one of them is reached by the real code path, checks included, and nothing can leave: the namespace
has no other interface and no route. Namespaces are per thread, so the rest of the test process keeps
its network. Needs CAP_SYS_ADMIN (root) and `ip`; `network_namespace_problem` says why not otherwise.
"""

from __future__ import annotations

import asyncio
import ipaddress
import shutil
import subprocess
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from vtcode.testing.netns_thread import call_in_namespace, unshare_network

T = TypeVar("T")


def _enter_new_namespace(addresses: Sequence[str]) -> None:
    unshare_network()
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, capture_output=True)
    for address in addresses:
        bits = 32 if ipaddress.ip_address(address).version == 4 else 128
        subprocess.run(
            ["ip", "addr", "add", f"{address}/{bits}", "dev", "lo"], check=True, capture_output=True
        )


def run_in_network_namespace(addresses: Sequence[str], main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run `main()` on a fresh event loop in a thread with its own network namespace holding `addresses`."""
    return call_in_namespace(
        lambda: _enter_new_namespace(addresses), lambda: asyncio.run(main()), name="vtcode-netns"
    )


def network_namespace_problem() -> str | None:
    """Why this machine cannot run `run_in_network_namespace`, or None when it can."""
    if shutil.which("ip") is None:
        return "the `ip` command is missing"

    async def nothing() -> None:
        return None

    try:
        run_in_network_namespace([], nothing)
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"no network namespace for tests: {exc}"
    return None


@dataclass(frozen=True)
class Route:
    """What the server answers for one path."""

    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass
class WebServer:
    """An HTTP/1.1 server answering `routes` by path (404 otherwise); counts connections and paths."""

    routes: Mapping[str, Route]
    connections: int = 0
    paths: list[str] = field(default_factory=list)
    _server: asyncio.Server | None = None

    async def start(self, host: str, port: int = 0) -> int:
        """Listen on `host`; the port (a free one when `port` is 0)."""
        self._server = await asyncio.start_server(self._serve, host, port)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        """Stop listening."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            path = head.split(b" ", 2)[1].decode("latin-1")
            self.paths.append(path)
            route = self.routes.get(path, Route(b"not found", "text/plain", 404))
            lines = [
                f"HTTP/1.1 {route.status} X",
                f"Content-Type: {route.content_type}",
                f"Content-Length: {len(route.body)}",
                "Connection: close",
                *(f"{name}: {value}" for name, value in route.headers.items()),
            ]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
            view = memoryview(route.body)
            for start in range(0, len(view), 1 << 20):
                writer.write(view[start : start + (1 << 20)])
                await writer.drain()
            await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass  # the client went away (a capped download stops reading)
        finally:
            writer.close()
