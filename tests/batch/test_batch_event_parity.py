"""A task's events.jsonl is the `vtcode exec --json` stream of the same task, but for times and ids."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from tests.batch.scripted_tasks import MODEL_ARGS, TaskScripts, batch_env, small_repo, tasks_file
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer

# What differs between two runs of the same script: times, ids, the workspace's path.
_VOLATILE = {"ts", "thread_id", "wall_time", "api_ms", "duration_ms", "session_id", "process_id"}


def _normalized(text: str, workspace: Path) -> list[Any]:
    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: clean(item) for key, item in value.items() if key not in _VOLATILE}
        if isinstance(value, list):
            return [clean(item) for item in value]
        if isinstance(value, str):
            value = value.replace(str(workspace), "<workspace>")
            value = re.sub(r'"wall_time": [0-9.]+', '"wall_time": 0', value)
            return re.sub(r"run-[0-9a-f]{8}", "<session>", value)
        return value

    return [clean(json.loads(line)) for line in text.splitlines()]


def test_a_tasks_events_are_the_exec_json_stream_of_the_same_task(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    repo, _ = small_repo(tmp_path / "repo")
    direct = tmp_path / "direct"
    shutil.copytree(repo, direct)
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["same"], repo={"path": str(repo)})
    out = tmp_path / "out"
    with OpenAIChatServer(responder=TaskScripts()) as server:
        env = batch_env(server)
        batch = vtcode.run(
            "batch", "run", str(tasks), "-o", str(out), "--keep-workspaces", *MODEL_ARGS, env=env
        )
        exec_run = vtcode.run(
            "exec", "--json", "--approval", "full-auto", *MODEL_ARGS, "task same: do it", cwd=direct, env=env
        )
    assert batch.code == 0, batch.stderr
    assert exec_run.code == 0, exec_run.stderr
    stored = (out / "tasks" / "same" / "events.jsonl").read_text()
    workspace = Path(json.loads((out / "tasks" / "same" / "result.json").read_text())["workspace"])
    assert _normalized(stored, workspace) == _normalized(exec_run.stdout, direct)
