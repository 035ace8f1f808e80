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
    out = tmp_path / "out"
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
        killed_run = json.loads((out / "run.json").read_text())

        rerun = vtcode.run(*argv, env=env, timeout=300)
        rerun_tasks = requests_by_task(server.requests[first_run:])
    assert rerun.code == 0, rerun.stderr
    # The server saw the rerun ask only for the tasks that had no result when the driver died.
    assert set(rerun_tasks) == set(ids) - done_before
    assert all(count == 2 for count in rerun_tasks.values())
    # The predictions are those of an uninterrupted run: every task's own out.txt, in file order.
    lines = (out / "preds.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == [_prediction(task_id) for task_id in ids]
    assert json.loads((out / "preds.json").read_text()) == {task_id: _prediction(task_id) for task_id in ids}
    run = json.loads((out / "run.json").read_text())
    assert (run["runs"], run["task_ids"]) == (2, ids)
    # run.json says which run ended and which was killed.
    assert killed_run["finished_at"] is None
    assert run["finished_at"] >= run["updated_at"]
    # The tasks killed with the driver left no process behind.
    assert _processes_in(out) == []


def _prediction(task_id: str) -> dict[str, str]:
    """The prediction an uninterrupted run gives a task whose agent wrote its id to out.txt."""
    content = f"{task_id}\n"
    blob = subprocess.run(
        ["git", "hash-object", "--stdin"], input=content, capture_output=True, text=True, check=True
    ).stdout.strip()
    patch = (
        "diff --git a/out.txt b/out.txt\nnew file mode 100644\n"
        f"index {'0' * 40}..{blob}\n--- /dev/null\n+++ b/out.txt\n@@ -0,0 +1 @@\n+{content}"
    )
    return {"instance_id": task_id, "model_name_or_path": "vtcode/openai/gpt-4.1", "model_patch": patch}


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
