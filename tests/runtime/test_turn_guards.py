"""Turns that would fail silently or loop: an empty answer, the same tool call over and over."""

from __future__ import annotations

import json
from pathlib import Path

from tests.runtime.session_helpers import Reader, options
from vtcode.core.repeat_watch import REPEAT_WARN_AT
from vtcode.protocol.events import Notice, TurnCompleted, TurnFailed
from vtcode.protocol.messages import ToolResultMessage
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


def _list(call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("list_files", json.dumps({"path": "."}), id=call_id),))


async def test_an_empty_answer_without_any_tool_is_a_failed_turn(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("hello?"))
        failed = await reader.wait_for(TurnFailed)
        await reader.close()
    assert (failed.message, failed.exit_code) == ("the model returned an empty answer", 1)
    assert [n.message for n in reader.of(Notice)] == ["the model returned an empty answer"]


async def test_an_empty_answer_after_tools_completes_with_a_warning(tmp_path: Path) -> None:
    with server_for("chat", [_list("c1"), Reply(text="")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("list"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
    assert [n.message for n in reader.of(Notice)] == ["the model returned an empty answer"]


async def test_the_same_call_over_and_over_is_refused_then_ends_the_turn(tmp_path: Path) -> None:
    script = [_list(f"c{n}") for n in range(1, 20)]
    with server_for("chat", script) as server:
        session = await Session.open(options(tmp_path, tmp_path, server, max_turns=50))
        reader = Reader(session)
        await session.submit(UserInput("list forever"))
        failed = await reader.wait_for(TurnFailed)
        await reader.close()
        requests = len(server.requests)
    assert failed.message == f"the model made the same tool call {REPEAT_WARN_AT + 1} times in a row"
    assert requests == REPEAT_WARN_AT + 1
    results = [m for m in session.messages if isinstance(m, ToolResultMessage)]
    # Four ran, the fifth was refused with the reason, the sixth got a result too (history stays valid).
    assert [r.is_error for r in results] == [False] * (REPEAT_WARN_AT - 1) + [True, True]
    assert "identical call in a row" in results[REPEAT_WARN_AT - 1].content
