"""`no_network()`: while it is active, any connection to an address other than loopback (or a Unix
socket) fails at once, so a test that would reach a real provider fails loudly instead of going out.

It replaces `socket.socket.connect` / `connect_ex` for the whole process (asyncio and httpx connect
through them) and puts them back on exit; nested uses are fine.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

_LOCAL_NAMES = {"localhost", "localhost.localdomain"}


class NetworkBlocked(ConnectionRefusedError):
    """A connection beyond loopback was attempted under `no_network()`."""


def is_loopback(address: Any) -> bool:
    """Whether a socket address (host, port, ...) is loopback; anything that is not a pair passes."""
    if not isinstance(address, tuple) or not address:
        return True  # Unix sockets and the like: not the network
    host = str(address[0]).split("%", 1)[0]
    if host in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name other than localhost would need a lookup: refuse it


@contextlib.contextmanager
def no_network() -> Iterator[None]:
    """Refuse connections beyond 127.0.0.0/8, ::1 and Unix sockets while the block runs."""
    connect, connect_ex = socket.socket.connect, socket.socket.connect_ex

    def guarded(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not is_loopback(address):
            raise NetworkBlocked(f"no_network(): a connection to {address!r} was blocked (only loopback)")
        connect(self, address)

    def guarded_ex(self: socket.socket, address: Any) -> int:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not is_loopback(address):
            raise NetworkBlocked(f"no_network(): a connection to {address!r} was blocked (only loopback)")
        return connect_ex(self, address)

    socket.socket.connect = guarded  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = guarded_ex  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        socket.socket.connect = connect  # type: ignore[method-assign]
        socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
