"""Run `vtcode exec` in the background and `vtcode steer` next to it, as a user in two terminals would."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tests.conftest import Completed, VtcodeRunner


def start_exec(vtcode: VtcodeRunner, cwd: Path, env: Mapping[str, str], *args: str) -> subprocess.Popen[str]:
    """`vtcode exec --json ARGS` in the background."""
    return subprocess.Popen(
        vtcode.command("exec", "--json", *args),
        cwd=cwd,
        env=vtcode.env(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll `condition` (files and processes: nothing to await)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


def sessions_dir(vtcode: VtcodeRunner) -> Path:
    """Where the isolated home keeps sessions."""
    return vtcode.home / ".vtcode" / "sessions"


def only_session(vtcode: VtcodeRunner) -> Path:
    """The one stored session's directory, once its history exists."""
    wait_for(lambda: any(sessions_dir(vtcode).glob("*/history.jsonl")))
    (history,) = sessions_dir(vtcode).glob("*/history.jsonl")
    return history.parent


def steer(vtcode: VtcodeRunner, cwd: Path, *args: str) -> Completed:
    """`vtcode steer ARGS`."""
    return vtcode.run("steer", *args, cwd=cwd)


def history_messages(session: Path) -> list[dict[str, Any]]:
    """The messages stored in a session's history, compactions applied."""
    messages: list[dict[str, Any]] = []
    for line in session.joinpath("history.jsonl").read_text().splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue  # a torn last line after a kill
        if "message" in record:
            messages.append(record["message"])
        elif "messages" in record:
            messages = list(record["messages"])
    return messages


def applied_intents(session: Path) -> list[tuple[str, str]]:
    """(intent id, text) of every tagged user message, in history order."""
    return [
        (m["meta"]["intent_id"], m["content"])
        for m in history_messages(session)
        if m["role"] == "user" and m.get("meta", {}).get("intent_id")
    ]
