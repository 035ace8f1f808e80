"""A loopback model that plays one short script per batch task, told apart by the task's instruction.

Every instruction starts with `task <id>:`; the step of a task's script is the number of tool results
in the request, so concurrent tasks never consume each other's replies. The server's request log tells
which tasks ran (and how often), and when each conversation was open.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import RecordedRequest, Reply, ScriptToolCall, Step

_TASK = re.compile(r"task ([A-Za-z0-9._-]+):")
GIT_IDENT = ["-c", "user.email=t@example.com", "-c", "user.name=t"]


def command_call(cmd: str, call_id: str = "c1", **extra: object) -> Reply:
    """A reply that runs `cmd` through exec_command."""
    return Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd, **extra}), id=call_id),))


def writes_its_id(task_id: str) -> list[Step]:
    """The default script: write the task's id to out.txt (the same name in every task), then answer."""
    return [command_call(f"printf '%s\\n' {task_id} > out.txt"), Reply(text=f"wrote {task_id}")]


def task_of(body: dict[str, Any]) -> str | None:
    """The task id named by the first user message of a Chat Completions request."""
    for message in body.get("messages", []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        text = content if isinstance(content, str) else json.dumps(content)
        found = _TASK.search(text)
        if found:
            return found.group(1)
    return None


@dataclass
class TaskScripts:
    """The responder: `script(task_id)` gives the task's steps; extra requests get a plain answer."""

    script: Callable[[str], Sequence[Step]] = writes_its_id
    lock: threading.Lock = field(default_factory=threading.Lock)
    opened: dict[str, float] = field(default_factory=dict)
    closed: dict[str, float] = field(default_factory=dict)

    def __call__(self, request: RecordedRequest) -> Step:
        body = request.json()
        task_id = task_of(body)
        if task_id is None:
            return Reply(text="no task named")
        step = sum(1 for message in body["messages"] if message.get("role") == "tool")
        steps = list(self.script(task_id))
        with self.lock:
            self.opened.setdefault(task_id, time.monotonic())
            if step >= len(steps) - 1:
                self.closed[task_id] = time.monotonic()
        return steps[min(step, len(steps) - 1)]


def requests_by_task(requests: Sequence[RecordedRequest]) -> Counter[str]:
    """How many model requests each task made, from a server's log."""
    return Counter(task_of(request.json()) or "?" for request in requests)


def tasks_file(path: Path, ids: Sequence[str], **fields: object) -> Path:
    """A tasks file: one task per id, `task <id>: ...` as its instruction, `fields` on every line."""
    lines = [
        json.dumps({"id": task_id, "instruction": f"task {task_id}: do it", **fields}) for task_id in ids
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def small_repo(path: Path) -> tuple[Path, str]:
    """A git repository with two text files and a binary file; returns it and its commit."""
    path.mkdir(parents=True)
    (path / "README.md").write_text("# small\n")
    (path / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (path / "logo.bin").write_bytes(bytes(range(256)))
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    subprocess.run(["git", "add", "."], cwd=path, check=True)
    subprocess.run(["git", *GIT_IDENT, "commit", "-qm", "init"], cwd=path, check=True)
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=path, check=True, capture_output=True, text=True
    ).stdout.strip()
    return path, commit


def bare_mirror(repo: Path, mirror: Path) -> Path:
    """A bare clone of `repo` at `mirror` (what --repos-dir and `repo.git` point at)."""
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(mirror)], check=True)
    return mirror


def batch_env(server: OpenAIChatServer) -> dict[str, str]:
    """The environment that points the batch's tasks at `server`."""
    return {"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": server.base_url}


MODEL_ARGS = ("--provider", "openai", "--model", "gpt-4.1")


def max_overlap(opened: dict[str, float], closed: dict[str, float]) -> int:
    """The most conversations open at one time (opened at the first request, closed at the last)."""
    edges = sorted(
        [(at, 1) for at in opened.values()] + [(closed.get(key, float("inf")), -1) for key in opened],
        key=lambda edge: (edge[0], edge[1]),
    )
    best = current = 0
    for _, delta in edges:
        current += delta
        best = max(best, current)
    return best
