"""A Ray cluster for tests and benchmarks: a head and worker nodes on 127.0.0.1 in a `LoopbackNamespace`.

Started the way a user starts one (`ray start --head --node-ip-address=127.0.0.1`, then `ray start
--address=...` per worker node), with token authentication (`RAY_AUTH_MODE=token`, the token in the
environment, never in the real `~/.ray`), usage statistics off, and a small object store. The head
gets no CPUs, so every task runs on a worker node; each worker node carries a custom resource named
after it. Worker nodes run with `--block`, so each one's raylet is a child the test can kill.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import time
from pathlib import Path

import psutil

from vtcode.testing.loopback_netns import LoopbackNamespace

# Fixed ports are safe here: every cluster has a namespace, and so a loopback, of its own.
HEAD_PORT = 6379
_OBJECT_STORE_BYTES = 100 * 1024 * 1024
_STARTED = "Ray runtime started"
_START_SECONDS = 120.0


class RayClusterError(RuntimeError):
    """A node of the test cluster did not start."""


class RayCluster:
    """A Ray cluster inside `namespace`; `env` is what a driver needs to join it (add a provider's own)."""

    def __init__(self, namespace: LoopbackNamespace, ray: Path, base: Path) -> None:
        self.namespace = namespace
        self.ray = ray
        # Ray's socket paths must stay under 108 bytes: `base` is short (a mkdtemp under /tmp).
        self.temp_dir = base / "t"
        self.logs = base / "logs"
        self.home = base / "home"
        for folder in (self.logs, self.home):
            folder.mkdir(parents=True, exist_ok=True)
        self.address = f"127.0.0.1:{HEAD_PORT}"
        self.token = secrets.token_hex(32)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN": self.token,
            "RAY_USAGE_STATS_ENABLED": "0",
        }
        self.nodes: dict[str, subprocess.Popen[bytes]] = {}

    def start_head(self) -> None:
        """`ray start --head` on 127.0.0.1 with no CPUs (it schedules, it does not run tasks)."""
        head = self._ray_start(
            "head",
            "--head",
            "--node-ip-address=127.0.0.1",
            f"--port={HEAD_PORT}",
            "--num-cpus=0",
            "--include-dashboard=false",
            "--disable-usage-stats",
            f"--object-store-memory={_OBJECT_STORE_BYTES}",
            f"--temp-dir={self.temp_dir}",
        )
        try:
            code = head.wait(timeout=_START_SECONDS)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()
            raise
        if code != 0:
            raise RayClusterError(f"ray head: {self._tail('head')}")

    def add_node(self, name: str, num_cpus: int) -> None:
        """A worker node with `num_cpus` CPUs and the custom resource `{name: 1}`; returns once started."""
        node = self._ray_start(
            name,
            "--block",
            f"--address={self.address}",
            "--node-ip-address=127.0.0.1",
            f"--num-cpus={num_cpus}",
            f'--resources={{"{name}": 1}}',
            f"--object-store-memory={_OBJECT_STORE_BYTES}",
        )
        self.nodes[name] = node
        deadline = time.monotonic() + _START_SECONDS
        while _STARTED not in self._tail(name):
            if node.poll() is not None or time.monotonic() > deadline:
                raise RayClusterError(f"ray node {name}: {self._tail(name)}")
            time.sleep(0.2)

    def raylet(self, name: str) -> psutil.Process:
        """The raylet process of worker node `name`."""
        node = psutil.Process(self.nodes[name].pid)
        for child in node.children(recursive=True):
            if child.name() == "raylet":
                return child
        raise RayClusterError(f"ray node {name} has no raylet")

    def kill_node(self, name: str) -> None:
        """SIGKILL worker node `name`'s raylet and every process under it (its workers and their tasks).

        This is a machine lost or preempted. The raylet alone would not do: a worker outliving its raylet
        for a moment can still hand its result to the driver, which talks to it directly.
        """
        raylet = self.raylet(name)
        for proc in [raylet, *raylet.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                proc.kill()

    def _ray_start(self, log_name: str, *options: str) -> subprocess.Popen[bytes]:
        """`ray start OPTIONS...` inside the namespace, both its streams in `logs/LOG_NAME.log`."""
        with (self.logs / f"{log_name}.log").open("wb") as log:
            return subprocess.Popen(
                self.namespace.argv([str(self.ray), "start", *options]),
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def _tail(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""
