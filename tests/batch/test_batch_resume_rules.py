"""Resume rules: terminal statuses are skipped, the others rerun; the rerun switches; damaged results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import msgspec
import pytest

from tests.batch.scripted_tasks import (
    MODEL_ARGS,
    TaskScripts,
    batch_env,
    requests_by_task,
    small_repo,
    tasks_file,
    writes_its_id,
)
from tests.conftest import VtcodeRunner
from vtcode.core.batch.result import TaskResult
from vtcode.core.batch.status import ResumeOptions, Selection, select, stale_name
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, Step


def _result(status: str) -> TaskResult:
    return msgspec.convert({"id": status, "instance_id": status, "status": status}, TaskResult)


_STATES = {
    **{status: _result(status) for status in ("completed", "failed", "timeout", "error", "interrupted")},
    "damaged": "damaged",
    "missing": "missing",
}
_IDS = list(_STATES)


@pytest.mark.parametrize(
    ("options", "runs"),
    [
        (ResumeOptions(), ["error", "interrupted", "damaged", "missing"]),
        (
            ResumeOptions(retry_failed=True),
            ["failed", "timeout", "error", "interrupted", "damaged", "missing"],
        ),
        (ResumeOptions(redo_existing=True), _IDS),
    ],
)
def test_each_status_reruns_exactly_as_documented(options: ResumeOptions, runs: list[str]) -> None:
    selection = select(_IDS, _STATES, options)  # type: ignore[arg-type]
    assert selection == Selection(
        run=tuple(runs),
        skip=tuple(task_id for task_id in _IDS if task_id not in runs),
        set_aside=tuple(task_id for task_id in runs if task_id != "missing"),
    )


def test_folders_set_aside_take_the_first_free_number() -> None:
    assert stale_name("a", {"a", "b.stale-1"}) == "a.stale-1"
    assert stale_name("a", {"a.stale-1", "a.stale-2"}) == "a.stale-3"


def _restatus(out: Path, statuses: dict[str, str]) -> None:
    for task_id, status in statuses.items():
        path = out / "tasks" / task_id / "result.json"
        if status == "damaged":
            path.write_bytes(path.read_bytes()[:40])
            continue
        result = json.loads(path.read_text())
        result["status"] = status
        path.write_text(json.dumps(result))


def test_reruns_follow_the_status_of_each_result_on_disk(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    repo, _ = small_repo(tmp_path / "repo")
    ids = ["c", "f", "t", "e", "i", "d"]
    tasks = tasks_file(tmp_path / "tasks.jsonl", ids, repo={"path": str(repo)})
    out = tmp_path / "out"
    argv = ("batch", "run", str(tasks), "-o", str(out), "--workers", "3", *MODEL_ARGS)
    with OpenAIChatServer(responder=TaskScripts()) as server:
        env = batch_env(server)
        assert vtcode.run(*argv, env=env, timeout=300).code == 0
        _restatus(out, {"f": "failed", "t": "timeout", "e": "error", "i": "interrupted", "d": "damaged"})
        damaged = (out / "tasks" / "d" / "result.json").read_bytes()

        mark = len(server.requests)
        plain = vtcode.run(*argv, env=env, timeout=300)
        assert set(requests_by_task(server.requests[mark:])) == {"e", "i", "d"}
        assert plain.code == 1, plain.stderr  # failed and timeout remain
        # The damaged folder is kept aside, untouched; so are the replaced results.
        assert (out / "tasks" / "d.stale-1" / "result.json").read_bytes() == damaged
        assert json.loads((out / "tasks" / "e.stale-1" / "result.json").read_text())["status"] == "error"
        assert json.loads((out / "tasks" / "d" / "result.json").read_text())["attempt"] == 2

        mark = len(server.requests)
        retried = vtcode.run(*argv, "--retry-failed", env=env, timeout=300)
        assert set(requests_by_task(server.requests[mark:])) == {"f", "t"}
        assert retried.code == 0, retried.stderr

        mark = len(server.requests)
        assert vtcode.run(*argv, env=env, timeout=300).code == 0
        assert len(server.requests) == mark  # all done: nothing runs

    status = vtcode.run("batch", "status", str(out), "--json")
    summary = json.loads(status.stdout)
    assert summary["counts"] == {"completed": 6}
    assert [task["status"] for task in summary["tasks"]] == ["completed"] * 6


def test_redo_existing_reruns_a_done_task_and_another_file_or_model_is_refused(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["a"])
    out = tmp_path / "out"
    with OpenAIChatServer(responder=TaskScripts()) as server:
        env = batch_env(server)
        assert vtcode.run("batch", "run", str(tasks), "-o", str(out), *MODEL_ARGS, env=env).code == 0
        other_model = vtcode.run(
            "batch", "run", str(tasks), "-o", str(out), "--provider", "openai", "--model", "gpt-5", env=env
        )
        redone = vtcode.run(
            "batch", "run", str(tasks), "-o", str(out), "--redo-existing", *MODEL_ARGS, env=env
        )
        tasks_file(tasks, ["a", "b"])
        other_file = vtcode.run("batch", "run", str(tasks), "-o", str(out), *MODEL_ARGS, env=env)
        requests = len(server.requests)
    assert other_model.code == 2
    assert "other settings (model: 'gpt-4.1' -> 'gpt-5')" in other_model.stderr
    assert other_file.code == 2
    assert "made from another tasks file" in other_file.stderr
    # Only the first run and --redo-existing asked the model (two requests each).
    assert redone.code == 0, redone.stderr
    assert requests == 4
    assert (out / "tasks" / "a.stale-1" / "result.json").is_file()


def test_ctrl_c_interrupts_running_tasks_which_rerun_next_time(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ids = ["s0", "s1", "s2"]
    tasks = tasks_file(tmp_path / "tasks.jsonl", ids)
    out = tmp_path / "out"
    stalling = {"on": True}

    def script(task_id: str) -> list[Step]:
        if stalling["on"]:
            return [Reply(stall_after=0, keep_alive_every=0.05)]
        return writes_its_id(task_id)

    argv = ("batch", "run", str(tasks), "-o", str(out), "--workers", "2", *MODEL_ARGS)
    with OpenAIChatServer(responder=TaskScripts(script=script)) as server:
        env = batch_env(server)
        driver = subprocess.Popen(
            vtcode.command(*argv),
            env=vtcode.env(env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while len(requests_by_task(server.requests)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(driver.pid, signal.SIGINT)
        stdout, stderr = driver.communicate(timeout=120)
        running = set(requests_by_task(server.requests))
        statuses = {
            folder.name: json.loads((folder / "result.json").read_text())["status"]
            for folder in (out / "tasks").iterdir()
        }
        stalling["on"] = False
        mark = len(server.requests)
        rerun = vtcode.run(*argv, env=env, timeout=300)
        rerun_tasks = set(requests_by_task(server.requests[mark:]))
    assert driver.returncode == 130, stderr
    assert "interrupting the running ones" in stderr
    assert "rerun the same command" in stdout
    assert len(running) == 2
    # The running tasks are recorded as interrupted; the one never started has no folder at all.
    assert statuses == {task_id: "interrupted" for task_id in running}
    assert rerun.code == 0, rerun.stderr
    assert rerun_tasks == set(ids)
