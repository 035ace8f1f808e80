"""Ctrl-C on a Ray batch does what it does locally: running tasks are interrupted, nothing new starts."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.batch.scripted_tasks import MODEL_ARGS, command_call, requests_by_task, tasks_file
from tests.batch_ray.conftest import Model, driver_env, start_cluster
from tests.conftest import VtcodeRunner
from vtcode.testing.loopback_netns import LoopbackNamespace
from vtcode.testing.script import Reply, Step


@pytest.mark.timeout(300)
def test_ctrl_c_interrupts_the_running_task_on_its_node_and_starts_no_other(
    vtcode: VtcodeRunner, namespace: LoopbackNamespace, model: Model, ray_base: Path, tmp_path: Path
) -> None:
    def script(task_id: str) -> list[Step]:
        return [command_call("sleep 60", yield_time_ms=90000), Reply(text="done")]

    model.scripts.script = script
    cluster = start_cluster(namespace, ray_base, [("node2", 1)])
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["first", "second"])
    out = tmp_path / "out"
    args = [str(tasks), "-o", str(out), *MODEL_ARGS, "--workers", "1", "--grace", "20", "--backend", "ray"]
    driver = subprocess.Popen(
        namespace.argv(vtcode.command("batch", "run", *args, "--ray-address", cluster.address)),
        env=vtcode.env(driver_env(cluster, model.server)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not requests_by_task(model.server.requests) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # its command is running
        driver.send_signal(signal.SIGINT)
        stdout, stderr = driver.communicate(timeout=120)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert driver.returncode == 130, stderr
    assert "Traceback" not in stderr
    running = next(iter(requests_by_task(model.server.requests)))
    result = json.loads((out / "tasks" / running / "result.json").read_text())
    # vtcode exec itself got the SIGINT on the node: it ended its turn and wrote its last events.
    assert (result["status"], result["exit_code"]) == ("interrupted", 130)
    assert (out / "tasks" / running / "events.jsonl").read_text().strip()
    other = "second" if running == "first" else "first"
    assert not (out / "tasks" / other).exists()
    assert "interrupted: rerun the same command" in stdout
