"""A driver killed with SIGKILL mid-batch: the rerun runs only the missing tasks, same predictions."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from tests.batch.scripted_tasks import (
    MODEL_ARGS,
    TaskScripts,
    batch_env,
    requests_by_task,
    small_repo,
    tasks_file,
)
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer


def _results(out: Path) -> set[str]:
    tasks = out / "tasks"
    if not tasks.is_dir():
        return set()
    return {folder.name for folder in tasks.iterdir() if (folder / "result.json").exists()}


def test_a_killed_driver_resumes_with_only_the_missing_tasks_and_the_same_predictions(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    repo, _ = small_repo(tmp_path / "repo")
    ids = [f"k{n}" for n in range(6)]
    tasks = tasks_file(tmp_path / "tasks.jsonl", ids, repo={"path": str(repo)})
    out, clean = tmp_path / "out", tmp_path / "clean"
    argv = ("batch", "run", str(tasks), "-o", str(out), "--workers", "2", *MODEL_ARGS)
    with OpenAIChatServer(responder=TaskScripts()) as server:
        env = batch_env(server)
        driver = subprocess.Popen(
            vtcode.command(*argv), env=vtcode.env(env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 120
        while len(_results(out)) < 2 and driver.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait()
        done_before = _results(out)
        assert 2 <= len(done_before) < len(ids), driver.stderr.read() if driver.stderr else ""
        first_run = len(server.requests)

        rerun = vtcode.run(*argv, env=env, timeout=300)
        rerun_tasks = requests_by_task(server.requests[first_run:])
        uninterrupted = vtcode.run(
            "batch", "run", str(tasks), "-o", str(clean), "--workers", "2", *MODEL_ARGS, env=env, timeout=300
        )
    assert rerun.code == 0, rerun.stderr
    assert uninterrupted.code == 0, uninterrupted.stderr
    # The server saw the rerun ask only for the tasks that had no result when the driver died.
    assert set(rerun_tasks) == set(ids) - done_before
    assert all(count == 2 for count in rerun_tasks.values())
    assert (out / "preds.json").read_bytes() == (clean / "preds.json").read_bytes()
    assert (out / "preds.jsonl").read_bytes() == (clean / "preds.jsonl").read_bytes()
    run = json.loads((out / "run.json").read_text())
    assert (run["runs"], run["task_ids"]) == (2, ids)
    # The tasks killed with the driver left no process behind.
    assert _processes_in(out) == []


def _processes_in(out: Path) -> list[int]:
    import psutil

    found = []
    for proc in psutil.process_iter():
        try:
            if any(str(out) in part for part in proc.cmdline()):
                found.append(proc.pid)
        except psutil.Error:
            continue
    return found
