"""Helpers for the checkpoint tests: a git workspace, scripted turns through the real CLI, rewinds."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.conftest import Completed, VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def git(repo: Path, *args: str) -> str:
    """Run the user's git in `repo` (as the user would) and return its output."""
    ident = ["-c", "user.email=t@example.com", "-c", "user.name=t"]
    done = subprocess.run(["git", *ident, *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout


def user_repo(path: Path, files: Mapping[str, str]) -> Path:
    """A committed git repository holding `files`."""
    path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    git(path, "init", "-q")
    git(path, "add", ".")
    git(path, "commit", "-qm", "init")
    return path


def patch_call(patch: str, call_id: str) -> Reply:
    """A reply calling apply_patch."""
    return Reply(tool_calls=(ScriptToolCall("apply_patch", json.dumps({"patch": patch}), id=call_id),))


def command_call(cmd: str, call_id: str) -> Reply:
    """A reply calling exec_command."""
    return Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id=call_id),))


def turn(
    vtcode: VtcodeRunner,
    workspace: Path,
    prompt: str,
    replies: Sequence[Reply],
    *,
    resume: bool = True,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
) -> tuple[Completed, list[dict[str, Any]]]:
    """One user turn through `vtcode exec` (continuing the workspace's session); the requests received."""
    with server_for("chat", [*replies, Reply(text="done")]) as server:
        extra = ["--continue"] if resume else []
        done = vtcode.run(
            "exec", *cli_args("chat"), "--approval", "full-auto", *args, *extra, prompt,
            cwd=workspace, env={**cli_env("chat", server), **(env or {})}, timeout=120,
        )  # fmt: skip
        bodies = [json.loads(r.body) for r in server.requests]
    assert done.code == 0, done.stderr
    return done, bodies


def rewind(
    vtcode: VtcodeRunner, workspace: Path, *args: str, env: Mapping[str, str] | None = None
) -> Completed:
    """`vtcode rewind ARGS` in the workspace."""
    return vtcode.run("rewind", *args, cwd=workspace, env=env, timeout=120)
