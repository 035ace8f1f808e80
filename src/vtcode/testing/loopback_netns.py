"""A network namespace with only `lo` in it, held open by a process, for tests that run whole clusters.

Ray binds the host's interfaces and probes 8.8.8.8:53 to find its address unless nothing but loopback
exists; inside this namespace its node address is 127.0.0.1 and nothing can leave (no other interface, no
route). Processes join it through `nsenter --net` (`argv`), and sockets of this process join it when they
are created on a thread that entered it (`call_inside`). Which processes belong to a test is exact: those
whose network namespace is this one, so `close` kills every one of them, daemonised or orphaned ones too.
Needs root (CAP_SYS_ADMIN), `unshare`, `nsenter` and `ip`; `loopback_namespace_problem` says why not.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from vtcode.testing.netns_thread import call_in_namespace, join_network

T = TypeVar("T")
# The holder ends by itself after this long, so a test killed before its teardown leaves nothing forever.
_HOLDER_SECONDS = 3600
_HOLDER_SCRIPT = f"ip link set lo up && echo ready && exec sleep {_HOLDER_SECONDS}"
# /proc/net/tcp states: 0A is LISTEN; an unconnected UDP socket shows 07.
_TCP_LISTEN = "0A"


@dataclass(frozen=True)
class Socket:
    """One socket of the namespace's tables: protocol, local address and port, and whether it listens."""

    protocol: str
    address: str
    port: int
    listening: bool


class LoopbackNamespace:
    """A network namespace holding only `lo` (up); use as a context manager."""

    def __init__(self) -> None:
        self._holder = subprocess.Popen(
            ["unshare", "--net", "--", "sh", "-c", _HOLDER_SCRIPT],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        assert self._holder.stdout is not None
        line = self._holder.stdout.readline()
        if line.strip() != b"ready":
            _, err = self._holder.communicate(timeout=30)
            raise OSError(f"no loopback namespace: {err.decode(errors='replace').strip()}")
        self.path = f"/proc/{self._holder.pid}/ns/net"
        self.inode = os.readlink(self.path)

    def __enter__(self) -> LoopbackNamespace:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def argv(self, argv: Sequence[str]) -> list[str]:
        """`argv` run inside the namespace."""
        return ["nsenter", f"--net={self.path}", "--", *argv]

    def call_inside(self, fn: Callable[[], T]) -> T:
        """Call `fn` on a thread that entered the namespace: the sockets it creates stay in it."""
        return call_in_namespace(lambda: join_network(self.path), fn, name="vtcode-loopback-netns")

    def pids(self) -> list[int]:
        """Every process in the namespace but its holder."""
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in (self._holder.pid, os.getpid()):
                continue
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{entry}/ns/net") == self.inode:
                    found.append(int(entry))
        return found

    def interfaces(self) -> list[str]:
        """The namespace's network interfaces, by name."""
        return [line.split(":")[0].strip() for line in self._proc_net("dev")[2:] if ":" in line]

    def sockets(self) -> list[Socket]:
        """Every TCP and UDP socket in the namespace's tables (IPv4 and IPv6)."""
        found = []
        for protocol in ("tcp", "tcp6", "udp", "udp6"):
            for line in self._proc_net(protocol)[1:]:
                fields = line.split()
                if len(fields) < 4:
                    continue
                address, port = _decode_address(fields[1])
                listening = fields[3] == _TCP_LISTEN if protocol.startswith("tcp") else True
                found.append(Socket(protocol, address, port, listening))
        return found

    def close(self) -> None:
        """Kill every process in the namespace (bounded), then the holder."""
        deadline = time.monotonic() + 30
        while (pids := self.pids()) and time.monotonic() < deadline:
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.1)
        if self._holder.poll() is None:
            self._holder.kill()
        self._holder.wait(timeout=30)
        for stream in (self._holder.stdout, self._holder.stderr):
            if stream is not None:
                stream.close()

    def _proc_net(self, name: str) -> list[str]:
        return Path(f"/proc/{self._holder.pid}/net/{name}").read_text().splitlines()


def _decode_address(field: str) -> tuple[str, int]:
    """`0100007F:1F90` (host byte order, hex) as ("127.0.0.1", 8080); IPv6 likewise, with `::ffff:` kept."""
    raw, port = field.split(":")
    data = bytes.fromhex(raw)
    if len(data) == 4:
        return ".".join(str(b) for b in data[::-1]), int(port, 16)
    words = b"".join(data[i : i + 4][::-1] for i in range(0, 16, 4))
    return str(ipaddress.IPv6Address(words)), int(port, 16)


def is_loopback(address: str) -> bool:
    """Whether a socket address is loopback, IPv4-mapped loopback included."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def loopback_namespace_problem() -> str | None:
    """Why this machine cannot make a `LoopbackNamespace`, or None when it can."""
    for tool in ("unshare", "nsenter", "ip"):
        if shutil.which(tool) is None:
            return f"the `{tool}` command is missing"
    try:
        LoopbackNamespace().close()
    except (OSError, subprocess.SubprocessError) as exc:
        return f"no network namespace for tests: {exc}"
    return None
