"""Helpers for end-to-end tests: a temp git repository and the JSON events of a vtcode run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

CALC_BUGGY = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"
CHECK = "import calc\n\nassert calc.add(2, 3) == 5, calc.add(2, 3)\nprint('ok: 1 passed')\n"
FIX_PATCH = (
    "*** Begin Patch\n*** Update File: calc.py\n@@ def add(a, b):\n-    return a - b\n"
    "+    return a + b\n*** End Patch\n"
)


def git_repo(path: Path) -> Path:
    """A small git repository with a bug and a check script."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "calc.py").write_text(CALC_BUGGY)
    (path / "check.py").write_text(CHECK)
    (path / "README.md").write_text("# calc\n")
    env_args = ["-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    subprocess.run(["git", "add", "."], cwd=path, check=True)
    subprocess.run(["git", *env_args, "commit", "-qm", "init"], cwd=path, check=True)
    return path


def events(stdout: str) -> list[dict[str, Any]]:
    """Parse `exec --json` output; every line must be one JSON object with a type and schema_version.

    Every event is stamped with a time (`ts`, checked and dropped here: it differs per run).
    """
    parsed = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    for event in parsed:
        assert isinstance(event.get("type"), str), event
        assert event.get("schema_version") == 1, event
        assert isinstance(event.pop("ts"), float), event
    return parsed


def shape(evts: list[dict[str, Any]]) -> list[str]:
    """Event types with item types, e.g. 'item.completed:command_execution'."""
    out = []
    for event in evts:
        item = event.get("item")
        out.append(f"{event['type']}:{item['type']}" if item else event["type"])
    return out
