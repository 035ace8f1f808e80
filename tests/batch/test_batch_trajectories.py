"""Each task folder holds its ATIF trajectory; `vtcode batch atif` rewrites it from events.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

from tests.batch.scripted_tasks import MODEL_ARGS, TaskScripts, batch_env, tasks_file
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer


def test_each_task_has_an_atif_trajectory_that_batch_atif_rebuilds(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["traj"])
    out = tmp_path / "out"
    with OpenAIChatServer(responder=TaskScripts()) as server:
        result = vtcode.run("batch", "run", str(tasks), "-o", str(out), *MODEL_ARGS, env=batch_env(server))
    assert result.code == 0, result.stderr
    folder = out / "tasks" / "traj"
    record = json.loads((folder / "result.json").read_text())
    trajectory = json.loads((folder / "trajectory.json").read_text())
    thread = json.loads((folder / "events.jsonl").read_text().splitlines()[0])
    assert trajectory["schema_version"] == "ATIF-v1.7"
    assert trajectory["session_id"] == thread["thread_id"]
    assert trajectory["agent"]["model_name"] == "gpt-4.1"
    steps = trajectory["steps"]
    assert (steps[0]["source"], steps[0]["message"]) == ("user", "task traj: do it")
    calls = [call for step in steps for call in step.get("tool_calls", [])]
    assert [call["function_name"] for call in calls] == ["exec_command"]
    assert [step["step_id"] for step in steps] == list(range(1, len(steps) + 1))
    final = trajectory["final_metrics"]
    assert (final["total_prompt_tokens"], final["total_completion_tokens"]) == (
        record["usage"]["input_tokens"],
        record["usage"]["output_tokens"],
    )
    written = (folder / "trajectory.json").read_bytes()
    (folder / "trajectory.json").unlink()
    rebuilt = vtcode.run("batch", "atif", str(out))
    assert rebuilt.code == 0, rebuilt.stderr
    assert "1 trajectories written" in rebuilt.stdout
    assert (folder / "trajectory.json").read_bytes() == written
