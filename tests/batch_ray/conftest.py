"""A Ray cluster per test, with its driver and its loopback model, all inside a network namespace.

The tests here need Ray (`scripts/install-ray.sh`), which the main suite does not install: without it
they skip, saying so; with VTCODE_REQUIRE_RAY=1 (the CI step that installs Ray) they fail instead. The
namespace holds only `lo`, so nothing the cluster, the driver, the tasks or the model do can reach an
address other than 127.0.0.1, and Ray's probe of 8.8.8.8 finds no route.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.batch.scripted_tasks import TaskScripts
from tests.conftest import VtcodeRunner
from vtcode.testing.loopback_netns import LoopbackNamespace, loopback_namespace_problem
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.ray_cluster import RayCluster

RAY_MISSING = "Ray is not installed in this Python (scripts/install-ray.sh installs the `ray` extra)"


def ray_installed() -> bool:
    """Whether `import ray` would work here."""
    try:
        return importlib.util.find_spec("ray") is not None
    except (ImportError, ValueError):  # a module set to None in sys.modules: not importable
        return False


def _require(problem: str | None) -> None:
    if problem is None:
        return
    if os.environ.get("VTCODE_REQUIRE_RAY") == "1":
        pytest.fail(f"VTCODE_REQUIRE_RAY=1 but {problem}")
    pytest.skip(problem)


@pytest.fixture
def namespace() -> Iterator[LoopbackNamespace]:
    """A network namespace with only `lo`; every process left in it is killed at the end."""
    _require(None if ray_installed() else RAY_MISSING)
    _require(loopback_namespace_problem())
    with LoopbackNamespace() as made:
        yield made


@pytest.fixture
def ray_base() -> Iterator[Path]:
    """A short folder for Ray's sockets and logs (its socket paths must stay under 108 bytes)."""
    base = Path(tempfile.mkdtemp(prefix="vtray-"))
    yield base
    shutil.rmtree(base, ignore_errors=True)


def start_cluster(namespace: LoopbackNamespace, base: Path, nodes: Sequence[tuple[str, int]]) -> RayCluster:
    """A head (no CPUs) and the worker `nodes` (name, CPUs) in `namespace`."""
    cluster = RayCluster(namespace, Path(sys.executable).with_name("ray"), base)
    cluster.start_head()
    for name, cpus in nodes:
        cluster.add_node(name, cpus)
    return cluster


@dataclass
class Model:
    """The scripted loopback model, listening inside the namespace."""

    server: OpenAIChatServer
    scripts: TaskScripts


@pytest.fixture
def model(namespace: LoopbackNamespace) -> Iterator[Model]:
    """A Chat Completions server playing one script per task, on 127.0.0.1 inside the namespace."""
    scripts = TaskScripts()
    server = namespace.call_inside(lambda: OpenAIChatServer(responder=scripts))
    server.start()
    try:
        yield Model(server, scripts)
    finally:
        server.stop()


def run_batch(
    vtcode: VtcodeRunner,
    namespace: LoopbackNamespace,
    args: Sequence[str],
    env: dict[str, str],
    timeout: float = 240,
) -> subprocess.CompletedProcess[str]:
    """`vtcode batch run ARGS` as a driver inside the namespace."""
    return subprocess.run(
        namespace.argv(vtcode.command("batch", "run", *args)),
        env=vtcode.env(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def driver_env(cluster: RayCluster | None, server: OpenAIChatServer, key: str = "test-key") -> dict[str, str]:
    """The driver's environment: the provider (key and URL) and, for Ray, how to join the cluster."""
    ray = {name: value for name, value in (cluster.env.items() if cluster else ()) if name.startswith("RAY_")}
    return {**ray, "OPENAI_API_KEY": key, "OPENAI_BASE_URL": server.base_url}
