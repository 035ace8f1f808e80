"""Twenty tasks on four workers: never more than four children, isolated workspaces, twenty predictions."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import psutil

from tests.batch.scripted_tasks import (
    MODEL_ARGS,
    TaskScripts,
    batch_env,
    max_overlap,
    requests_by_task,
    small_repo,
    tasks_file,
)
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer


def _exec_children(driver: psutil.Process) -> int:
    """The driver's `vtcode exec` children right now."""
    count = 0
    try:
        children = driver.children()
    except psutil.Error:  # the driver has just exited
        return 0
    for child in children:
        try:
            cmdline = child.cmdline()
        except psutil.Error:
            continue
        count += "exec" in cmdline and "--json" in cmdline
    return count


def test_twenty_tasks_on_four_workers_stay_isolated_and_give_twenty_predictions(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    repo, _ = small_repo(tmp_path / "repo")
    ids = [f"t{n:02d}" for n in range(20)]
    tasks = tasks_file(tmp_path / "tasks.jsonl", ids, repo={"path": str(repo)})
    out = tmp_path / "out"
    scripts = TaskScripts()
    seen: list[int] = []
    with OpenAIChatServer(responder=scripts) as server:
        driver = subprocess.Popen(
            vtcode.command("batch", "run", str(tasks), "-o", str(out), "--workers", "4", *MODEL_ARGS),
            env=vtcode.env(batch_env(server)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        watched = psutil.Process(driver.pid)
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.02):
                seen.append(_exec_children(watched))

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            stdout, stderr = driver.communicate(timeout=300)
        finally:
            done.set()
            watcher.join()
        per_task = requests_by_task(server.requests)
    assert driver.returncode == 0, stderr
    assert "Traceback" not in stderr
    # Measured twice: the driver's live children, and the conversations open at once on the server.
    assert 1 <= max(seen) <= 4
    assert 2 <= max_overlap(scripts.opened, scripts.closed) <= 4
    assert per_task == {task_id: 2 for task_id in ids}
    # Every task wrote out.txt in its own workspace: each patch holds its own id and nothing else.
    for task_id in ids:
        folder = out / "tasks" / task_id
        result = json.loads((folder / "result.json").read_text())
        assert (result["status"], result["exit_code"], result["requests"]) == ("completed", 0, 2)
        patch = (folder / "patch.diff").read_text()
        assert patch.count("diff --git") == 1
        assert "+++ b/out.txt\n@@ -0,0 +1 @@\n" + f"+{task_id}\n" in patch
    preds = json.loads((out / "preds.json").read_text())
    assert sorted(preds) == ids
    lines = (out / "preds.jsonl").read_text().splitlines()
    assert [json.loads(line)["instance_id"] for line in lines] == ids
    assert "20 tasks (20 completed); ran 20, skipped 0; 20 predictions" in stdout
    # Without a terminal, progress is one plain line per finished task.
    assert sorted(line.split("] ")[1].split(":")[0] for line in stderr.splitlines()) == ids
    assert stderr.splitlines()[-1].startswith("[20/20] ")
    # Completed tasks leave no workspace behind.
    assert list((out / "work").iterdir()) == []
