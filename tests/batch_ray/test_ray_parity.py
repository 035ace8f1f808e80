"""The same tasks on a Ray cluster give the same statuses, patches and predictions as on the local backend.

The cluster (a head with no CPUs and one worker node), the driver and the model all run in a network
namespace holding only `lo`: every socket there is on 127.0.0.1, and the provider key reaches the tasks
in their own arguments only, never Ray's logs, session files or processes.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.batch.scripted_tasks import MODEL_ARGS, command_call, small_repo, writes_its_id
from tests.batch_ray.conftest import Model, driver_env, run_batch, start_cluster
from tests.conftest import VtcodeRunner
from vtcode.testing.loopback_netns import LoopbackNamespace, is_loopback
from vtcode.testing.script import Step

COMPLETED = ["t0", "t1", "t2", "t3"]
# Keeps running commands: ends on --max-turns, as an agent that never finishes.
LOOPING = "loop"
# Its setup command fails: the agent never runs.
BROKEN_SETUP = "setup"


def _script(task_id: str) -> list[Step]:
    if task_id == LOOPING:
        return [command_call(f"echo {n} >> turns.txt", call_id=f"c{n}") for n in range(10)]
    return writes_its_id(task_id)


def _tasks_file(path: Path, repo: Path) -> Path:
    lines: list[dict[str, object]] = [
        {"id": task_id, "instruction": f"task {task_id}: do it"} for task_id in [*COMPLETED, LOOPING]
    ]
    lines.append({"id": BROKEN_SETUP, "instruction": f"task {BROKEN_SETUP}: do it", "setup": ["exit 3"]})
    path.write_text("".join(json.dumps({**line, "repo": {"path": str(repo)}}) + "\n" for line in lines))
    return path


def _results(out: Path) -> dict[str, dict[str, Any]]:
    """Per task: what must not depend on where it ran."""
    found = {}
    for folder in sorted((out / "tasks").iterdir()):
        result = json.loads((folder / "result.json").read_text())
        found[folder.name] = {
            "status": result["status"],
            "exit_code": result["exit_code"],
            "requests": result["requests"],
            "error": (result.get("error") or {}).get("kind"),
            "patch": (folder / "patch.diff").read_bytes(),
            "events": [
                json.loads(line)["type"] for line in (folder / "events.jsonl").read_text().splitlines()
            ],
        }
    return found


def _holding(text: str, folder: Path) -> list[Path]:
    needle = text.encode()
    return [path for path in folder.rglob("*") if path.is_file() and needle in path.read_bytes()]


def _processes_holding(text: str, pids: list[int]) -> list[str]:
    found = []
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            if any(text in value for value in proc.environ().values()):
                found.append(" ".join(proc.cmdline()))
        except psutil.Error:
            continue
    return found


@pytest.mark.timeout(300)
def test_ray_gives_the_same_statuses_patches_and_predictions_as_local(
    vtcode: VtcodeRunner, namespace: LoopbackNamespace, model: Model, ray_base: Path, tmp_path: Path
) -> None:
    model.scripts.script = _script
    repo, _ = small_repo(tmp_path / "repo")
    tasks = _tasks_file(tmp_path / "tasks.jsonl", repo)
    key = f"sk-parity-{secrets.token_hex(8)}"
    flags = [*MODEL_ARGS, "--max-turns", "3", "--workers", "2"]

    local = run_batch(
        vtcode,
        namespace,
        [str(tasks), "-o", str(tmp_path / "local"), *flags],
        driver_env(None, model.server, key),
    )
    cluster = start_cluster(namespace, ray_base, [("node2", 2)])
    ray_args = ["--backend", "ray", "--ray-address", cluster.address]
    ray_out = tmp_path / "ray"
    remote = run_batch(
        vtcode,
        namespace,
        [str(tasks), "-o", str(ray_out), *flags, *ray_args],
        driver_env(cluster, model.server, key),
    )

    assert "Traceback" not in local.stderr + remote.stderr
    assert (remote.returncode, remote.stdout) == (local.returncode, local.stdout.replace("local", "ray"))
    local_results, ray_results = _results(tmp_path / "local"), _results(ray_out)
    assert ray_results == local_results
    assert {task: r["status"] for task, r in ray_results.items()} == {
        **dict.fromkeys(COMPLETED, "completed"),
        LOOPING: "failed",
        BROKEN_SETUP: "error",
    }
    assert {
        json.loads((ray_out / "tasks" / t / "result.json").read_text())["backend"] for t in ray_results
    } == {"ray"}
    for name in ("preds.json", "preds.jsonl"):
        assert (ray_out / name).read_bytes() == (tmp_path / "local" / name).read_bytes()
    # The key was used (the model got it) but Ray never held it: not in its logs or session files,
    # not in the environment of its processes (the tasks' own children have ended).
    assert {request.headers.get("authorization") for request in model.server.requests} == {f"Bearer {key}"}
    assert _holding(key, cluster.temp_dir) == []
    assert _processes_holding(key, namespace.pids()) == []
    # Nothing but loopback: the only interface is `lo`, and every socket is on 127.0.0.1.
    assert namespace.interfaces() == ["lo"]
    sockets = namespace.sockets()
    assert any(s.listening and s.port == 6379 for s in sockets)
    assert [s for s in sockets if not is_loopback(s.address)] == []
