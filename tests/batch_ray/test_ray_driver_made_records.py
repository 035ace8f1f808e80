"""A record the Ray driver makes itself (the task's run gave none) leaves the folder the local one does.

Both backends get a task whose run breaks down before vtcode starts (`OUT/work` is a file, so its
scratch folder cannot be made): on Ray the worker's error reaches the driver, which writes the record.
The task folders must hold the same files with the same bytes (the instruction, the trajectory that
starts with it, an empty patch, empty logs) and result.json the same fields, but for the times, the
backend and the error's wording.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.batch.driver_made import TASK_FILES, block_work_folder, driver_made_folder
from tests.batch.scripted_tasks import MODEL_ARGS, tasks_file
from tests.batch_ray.conftest import Model, driver_env, run_batch, start_cluster
from tests.conftest import VtcodeRunner
from vtcode.testing.loopback_netns import LoopbackNamespace

_VARYING = ("started_at", "finished_at", "duration_s", "backend", "error")


@pytest.mark.timeout(300)
def test_a_record_the_ray_driver_makes_keeps_the_instruction_and_files_of_the_local_one(
    vtcode: VtcodeRunner, namespace: LoopbackNamespace, model: Model, ray_base: Path, tmp_path: Path
) -> None:
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["broken"])
    outs = {"local": tmp_path / "local", "ray": tmp_path / "ray"}
    for out in outs.values():
        block_work_folder(out)
    local = run_batch(
        vtcode, namespace, [str(tasks), "-o", str(outs["local"]), *MODEL_ARGS], driver_env(None, model.server)
    )
    cluster = start_cluster(namespace, ray_base, [("node2", 1)])
    remote = run_batch(
        vtcode,
        namespace,
        [
            str(tasks),
            "-o",
            str(outs["ray"]),
            *MODEL_ARGS,
            "--backend",
            "ray",
            "--ray-address",
            cluster.address,
        ],
        driver_env(cluster, model.server),
    )

    assert "Traceback" not in local.stderr + remote.stderr
    assert (local.returncode, remote.returncode) == (1, 1), remote.stderr
    assert model.server.requests == []
    folders = {name: out / "tasks" / "broken" for name, out in outs.items()}
    results = {name: driver_made_folder(folder, "task broken: do it") for name, folder in folders.items()}
    assert results["ray"]["backend"] == "ray"
    assert "NotADirectoryError" in results["ray"]["error"]["message"]
    for name in TASK_FILES - {"result.json"}:
        assert (folders["ray"] / name).read_bytes() == (folders["local"] / name).read_bytes(), name
    ray_fields, local_fields = ({k: v for k, v in r.items() if k not in _VARYING} for r in results.values())
    assert ray_fields == local_fields
