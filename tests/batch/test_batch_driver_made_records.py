"""A task whose run breaks down outside the task still gets a complete folder, made by the driver.

Its scratch folder cannot be made (`OUT/work` is a file), so the task's run raises before vtcode starts
and the driver writes the record itself: `error`/`internal`, the task's instruction kept (and the
trajectory that starts with it), an empty patch and empty logs, and real times.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from tests.batch.scripted_tasks import MODEL_ARGS, TaskScripts, batch_env, tasks_file
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer

TASK_FILES = {"events.jsonl", "instruction.txt", "patch.diff", "result.json", "stderr.log", "trajectory.json"}


def block_work_folder(out: Path) -> None:
    """Make `OUT/work` a file: no task can make its scratch folder, so every run breaks down."""
    out.mkdir()
    (out / "work").write_text("not a folder\n")


def driver_made_folder(folder: Path, instruction: str) -> dict[str, Any]:
    """Check what every backend's driver-made task folder holds; its result.json, parsed."""
    assert {path.name for path in folder.iterdir()} == TASK_FILES
    assert (folder / "instruction.txt").read_text() == instruction
    trajectory = json.loads((folder / "trajectory.json").read_text())
    assert [step["message"] for step in trajectory["steps"]] == [instruction]
    for empty in ("patch.diff", "events.jsonl", "stderr.log"):
        assert (folder / empty).read_bytes() == b""
    result: dict[str, Any] = json.loads((folder / "result.json").read_text())
    assert (result["status"], result["error"]["kind"]) == ("error", "internal")
    assert (result["patch_bytes"], result["patch_sha256"]) == (0, hashlib.sha256(b"").hexdigest())
    assert (result["exit_code"], result["eval"], result["workspace"]) == (None, None, None)
    assert result["finished_at"] > 0
    assert result["started_at"] == result["finished_at"] - result["duration_s"]
    return result


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
