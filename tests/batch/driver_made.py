"""Task folders whose record the driver made itself: how to cause one, and what every backend's holds."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

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
