"""`SyncSession` runs on a loop thread of its own: in plain code, and where a loop already runs."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options, tool_results
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


@vt.tool
def shout(text: str) -> str:
    """Upper-case the text."""
    return text.upper()


def test_a_sync_session_runs_a_turn_with_a_function_tool_in_plain_code(
    tmp_path: Path, transport: TransportName
) -> None:
    call = ScriptToolCall("shout", json.dumps({"text": "hi"}), id="c1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="HI it is")]) as server:
        with vt.SyncSession.open(sdk_options(tmp_path, server, tools=[shout], transport=transport)) as s:
            result = s.run("shout hi")
        second = server.requests[1].json()
    assert result.final_text == "HI it is"
    assert tool_results(second, "chat") == ["HI"]
    assert not [t for t in threading.enumerate() if t.name == "vtcode-sdk-loop"]


async def test_a_sync_session_works_while_the_callers_loop_is_running(
    tmp_path: Path, transport: TransportName
) -> None:
    # As in a Jupyter cell: a loop runs in this thread, and `asyncio.run` would refuse to start.
    running = asyncio.get_running_loop()
    server = server_for("anthropic", [Reply(text="one"), Reply(text="two")])
    with (
        server,
        vt.SyncSession.open(sdk_options(tmp_path, server, wire="anthropic", transport=transport)) as s,
    ):
        first = s.run("first")
        turn = s.start("second")
        kinds = [type(e).__name__ for e in turn.events()]
        second = turn.result()
    assert asyncio.get_running_loop() is running
    assert (first.final_text, second.final_text) == ("one", "two")
    assert kinds[0] == "TurnStarted"
    assert kinds[-1] == "TurnCompleted"


def test_a_sync_session_that_cannot_open_raises_and_leaves_no_thread(tmp_path: Path) -> None:
    server = server_for("chat", [])
    with server, pytest.raises(vt.ConfigError, match="is not a directory"):
        vt.SyncSession.open(sdk_options(tmp_path / "missing", server))
    assert not [t for t in threading.enumerate() if t.name == "vtcode-sdk-loop"]
