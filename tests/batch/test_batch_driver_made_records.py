"""A task whose run breaks down outside the task still gets a complete folder, made by the driver.

Its scratch folder cannot be made (`OUT/work` is a file), so the task's run raises before vtcode starts
and the driver writes the record itself: `error`/`internal`, the task's instruction kept (and the
trajectory that starts with it), an empty patch and empty logs, and real times.
"""

from __future__ import annotations

from pathlib import Path

from tests.batch.driver_made import block_work_folder, driver_made_folder
from tests.batch.scripted_tasks import MODEL_ARGS, TaskScripts, batch_env, tasks_file
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer


def test_a_task_the_driver_ends_keeps_its_instruction_and_leaves_no_patch_or_logs(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["broken"])
    out = tmp_path / "out"
    block_work_folder(out)
    with OpenAIChatServer(responder=TaskScripts()) as server:
        run = vtcode.run(
            "batch", "run", str(tasks), "-o", str(out), *MODEL_ARGS, env=batch_env(server), timeout=120
        )
        assert server.requests == []
    assert run.code == 1, run.stderr
    assert "Traceback" not in run.stderr
    result = driver_made_folder(out / "tasks" / "broken", "task broken: do it")
    assert result["backend"] == "local"
    assert result["error"]["message"].startswith("NotADirectoryError")
