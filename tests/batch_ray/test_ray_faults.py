"""Faults on a Ray cluster: a node that dies under a task, and a worker that hangs past the task's limit.

A node's death (its raylet and its workers killed mid-task) sends the task back to the queue and the
batch completes on the other node. A worker that cannot end its own task (frozen with SIGSTOP, so the
task's own timeout never fires) is force-cancelled by the driver once the limit, grace and margin have
passed; the task ends `timeout` and none of its processes survive, not even one that left the task's
process group (the sandbox is off, so no namespace of its own takes the commands down with it).
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import psutil
import pytest

from tests.batch.scripted_tasks import MODEL_ARGS, command_call, requests_by_task, tasks_file
from tests.batch_ray.conftest import Model, driver_env, start_cluster
from tests.conftest import VtcodeRunner
from vtcode.testing.loopback_netns import LoopbackNamespace
from vtcode.testing.script import Reply, Step

_WAIT_S = 120.0
T = TypeVar("T")


def _task_execs(pids: list[int]) -> dict[int, str]:
    """The `vtcode exec` processes among `pids`, with the task each works for (from its -C folder)."""
    found = {}
    for pid in pids:
        try:
            cmdline = psutil.Process(pid).cmdline()
        except psutil.Error:
            continue
        if "exec" in cmdline and "--json" in cmdline and "-C" in cmdline:
            found[pid] = Path(cmdline[cmdline.index("-C") + 1]).parent.name
    return found


def _wait_for(find: Callable[[], T | None], what: str) -> T:
    deadline = time.monotonic() + _WAIT_S
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"never saw {what}")


def _driver(
    vtcode: VtcodeRunner, namespace: LoopbackNamespace, args: list[str], env: dict[str, str]
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        namespace.argv(vtcode.command("batch", "run", *args)),
        env=vtcode.env(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.timeout(300)
def test_a_task_whose_node_dies_is_queued_again_and_the_batch_completes(
    vtcode: VtcodeRunner, namespace: LoopbackNamespace, model: Model, ray_base: Path, tmp_path: Path
) -> None:
    def script(task_id: str) -> list[Step]:
        return [command_call("sleep 4; echo done > out.txt", yield_time_ms=30000), Reply(text="done")]

    model.scripts.script = script
    cluster = start_cluster(namespace, ray_base, [("node2", 1), ("node3", 1)])
    ids = ["a", "b"]
    tasks = tasks_file(tmp_path / "tasks.jsonl", ids)
    out = tmp_path / "out"
    args = [str(tasks), "-o", str(out), *MODEL_ARGS, "--workers", "2", "--backend", "ray"]
    driver = _driver(
        vtcode, namespace, [*args, "--ray-address", cluster.address], driver_env(cluster, model.server)
    )
    try:
        raylet = cluster.raylet("node2")

        def on_node2() -> str | None:
            """A task running on node2 that has sent its first request (its command now runs)."""
            children = [child.pid for child in raylet.children(recursive=True)]
            asked = requests_by_task(model.server.requests)
            return next((task for task in _task_execs(children).values() if asked[task] == 1), None)

        victim = _wait_for(on_node2, "a task on node2 running its command")
        cluster.kill_node("node2")
        stdout, stderr = driver.communicate(timeout=240)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert driver.returncode == 0, stderr
    assert "Traceback" not in stderr
    for task_id in ids:
        result = json.loads((out / "tasks" / task_id / "result.json").read_text())
        assert (result["status"], result["backend"]) == ("completed", "ray")
        assert "+done" in (out / "tasks" / task_id / "patch.diff").read_text()
    # The victim's first run got as far as its first request before its node died; then it ran again.
    per_task = requests_by_task(model.server.requests)
    assert per_task[victim] == 3
    assert per_task[next(t for t in ids if t != victim)] == 2
    assert "2 tasks (2 completed)" in stdout


@pytest.mark.timeout(300)
def test_a_worker_that_hangs_past_the_limit_is_cancelled_and_leaves_no_process(
    vtcode: VtcodeRunner, namespace: LoopbackNamespace, model: Model, ray_base: Path, tmp_path: Path
) -> None:
    tag = f"vtcode-ray-hang-{uuid.uuid4().hex}"
    sleeper = f"python3 -c 'import time; time.sleep(300)' {tag}"
    # One sleeper stays in the command's group; the other leaves it (setsid).
    command = f"setsid {sleeper}-escapee & {sleeper}-main"

    def script(task_id: str) -> list[Step]:
        return [command_call(command, yield_time_ms=60000), Reply(text="never")]

    model.scripts.script = script
    cluster = start_cluster(namespace, ray_base, [("node2", 1)])
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["hung"])
    out = tmp_path / "out"
    args = [
        str(tasks),
        "-o",
        str(out),
        *MODEL_ARGS,
        "--timeout",
        "15",
        "--grace",
        "1",
        "--sandbox",
        "off",
        "--backend",
        "ray",
    ]
    driver = _driver(
        vtcode, namespace, [*args, "--ray-address", cluster.address], driver_env(cluster, model.server)
    )

    def tagged() -> list[int]:
        """The sleepers, wherever they are (the sandbox gives commands a network namespace of their own)."""
        found = []
        for proc in psutil.process_iter():
            try:
                if any(tag in part for part in proc.cmdline()):
                    found.append(proc.pid)
            except psutil.Error:
                continue
        return found

    try:
        _wait_for(lambda: len(tagged()) >= 2, "both sleepers")
        exec_pid = next(iter(_task_execs(namespace.pids())))
        worker = psutil.Process(exec_pid).parent()
        assert worker is not None
        assert worker.name().startswith("ray::"), worker.name()
        # Frozen, the worker cannot run the task's own timeout: only the driver can end the task.
        worker.send_signal(signal.SIGSTOP)
        _, stderr = driver.communicate(timeout=180)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert driver.returncode == 1, stderr
    assert "Traceback" not in stderr
    result = json.loads((out / "tasks" / "hung" / "result.json").read_text())
    assert result["status"] == "timeout"
    assert result["error"]["kind"] == "timeout"
    assert "the driver cancelled it" in result["error"]["message"]
    # The driver made this record, and kept what the task was asked, as the local backend does.
    assert (out / "tasks" / "hung" / "instruction.txt").read_text() == "task hung: do it"
    assert not worker.is_running()
    assert tagged() == []
    assert _task_execs(namespace.pids()) == {}


@pytest.mark.timeout(300)
def test_a_task_whose_node_dies_three_times_ends_error_naming_the_node_deaths(
    vtcode: VtcodeRunner, namespace: LoopbackNamespace, model: Model, ray_base: Path, tmp_path: Path
) -> None:
    def script(task_id: str) -> list[Step]:
        return [command_call("sleep 60", yield_time_ms=90000), Reply(text="done")]

    model.scripts.script = script
    cluster = start_cluster(namespace, ray_base, [])
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["unlucky"])
    out = tmp_path / "out"
    args = [str(tasks), "-o", str(out), *MODEL_ARGS, "--backend", "ray", "--ray-address", cluster.address]
    driver = _driver(vtcode, namespace, args, driver_env(cluster, model.server))
    try:
        # Each run of the task gets a node of its own, which dies under it.
        for name in ("node2", "node3", "node4"):
            cluster.add_node(name, 1)
            raylet = cluster.raylet(name)

            def on_node(raylet: psutil.Process = raylet) -> dict[int, str]:
                return _task_execs([child.pid for child in raylet.children(recursive=True)])

            _wait_for(on_node, f"the task on {name}")
            cluster.kill_node(name)
        _, stderr = driver.communicate(timeout=120)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert driver.returncode == 1, stderr
    assert "Traceback" not in stderr
    result = json.loads((out / "tasks" / "unlucky" / "result.json").read_text())
    assert (result["status"], result["error"]["kind"]) == ("error", "node_died")
    assert result["error"]["message"].startswith("its node failed 3 times")
    assert (out / "tasks" / "unlucky" / "instruction.txt").read_text() == "task unlucky: do it"
