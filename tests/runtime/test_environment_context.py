"""The model starts informed: the first request carries where and when it runs, outside the cached prefix."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.session_helpers import Reader, options
from vtcode.protocol.events import TurnCompleted
from vtcode.protocol.messages import UserMessage
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply
from vtcode.testing.wire import WIRES, Wire, server_for

DAY = 86_400.0
# 2026-12-01 12:00 UTC and two days later.
MONDAY_NOON = 1_796_126_400.0


def _git(workspace: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@e", "-c", "user.name=t", *args], cwd=workspace, check=True)


def _repo(workspace: Path, branch: str, dirty: bool) -> None:
    workspace.mkdir()
    _git(workspace, "init", "-q", "-b", branch)
    (workspace / "a.txt").write_text("a\n")
    _git(workspace, "add", ".")
    _git(workspace, "commit", "-qm", "init")
    if dirty:
        (workspace / "a.txt").write_text("changed\n")
        (workspace / "new.txt").write_text("new\n")


def _prefix(wire: Wire, body: dict[str, Any]) -> str:
    """The cache-stable part of a request: tool schemas and the system prompt."""
    if wire == "chat":
        return json.dumps([body["tools"], body["messages"][0]])
    if wire == "anthropic":
        return json.dumps([body["tools"], body["system"]])
    return json.dumps([body["tools"], body["instructions"]])


async def _first_request(wire: Wire, workspace: Path, home: Path, now: float) -> dict[str, Any]:
    with server_for(wire, [Reply(text="ok")]) as server:
        session = await Session.open(options(workspace, home, server, wire=wire), clock=lambda: now)
        reader = Reader(session)
        await session.submit(UserInput("hello"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        body: dict[str, Any] = server.requests[0].json()
    context = [m for m in session.messages if isinstance(m, UserMessage) and m.meta.kind == "context"]
    assert len(context) == 1
    return body


@pytest.mark.parametrize("wire", WIRES)
async def test_the_first_request_says_where_and_when_and_the_prefix_does_not_change(
    tmp_path: Path, wire: Wire
) -> None:
    first_ws, second_ws = tmp_path / "one", tmp_path / "two"
    _repo(first_ws, "main", dirty=False)
    _repo(second_ws, "feature/x", dirty=True)
    first = await _first_request(wire, first_ws, tmp_path / "h1", MONDAY_NOON)
    second = await _first_request(wire, second_ws, tmp_path / "h2", MONDAY_NOON + 2 * DAY)
    sent_first, sent_second = json.dumps(first), json.dumps(second)
    assert f"Working directory: {first_ws}" in sent_first
    assert "Today: Tuesday 2026-12-01" in sent_first
    assert "Git: branch main; clean" in sent_first
    assert "Today: Thursday 2026-12-03" in sent_second
    assert "Git: branch feature/x; 1 modified, 1 untracked" in sent_second
    assert _prefix(wire, first) == _prefix(wire, second)
    assert "environment_context" not in _prefix(wire, first)


def _fixed(now: float) -> Callable[[], float]:
    return lambda: now


async def test_a_resume_adds_a_context_item_only_when_something_changed(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    _repo(workspace, "main", dirty=False)
    script = [Reply(text="one"), Reply(text="two"), Reply(text="three")]
    with server_for("chat", script) as server:
        opts = options(workspace, tmp_path, server)
        counts = []
        session_id = None
        for now in (MONDAY_NOON, MONDAY_NOON + 60, MONDAY_NOON + DAY):
            run_opts = opts if session_id is None else type(opts)(**{**opts.__dict__, "resume": session_id})
            session = await Session.open(run_opts, clock=_fixed(now))
            session_id = session.id
            reader = Reader(session)
            await session.submit(UserInput("hi"))
            await reader.wait_for(TurnCompleted)
            await reader.close()
            counts.append(
                sum(1 for m in session.messages if isinstance(m, UserMessage) and m.meta.kind == "context")
            )
    # Same day, same state: nothing new; the next day: a new item.
    assert counts == [1, 1, 2]
