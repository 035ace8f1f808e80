"""Interrupting a turn during `sleep 60`: the turn ends as interrupted, no process of the command's group
survives (over the subprocess transport too, where the command is the `vtcode acp` child's), and the
history keeps what the turn did up to the interrupt."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import psutil

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.protocol.messages import AssistantMessage, ToolResultMessage, UserMessage
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


def _group(pgid: int) -> list[int]:
    """Live (not zombie) processes whose process group is `pgid`."""
    found: list[int] = []
    for process in psutil.process_iter(["status"]):
        try:
            if os.getpgid(process.pid) == pgid and process.info["status"] != psutil.STATUS_ZOMBIE:
                found.append(process.pid)
        except (ProcessLookupError, psutil.NoSuchProcess):
            continue
    return found


async def test_interrupting_during_sleep_60_leaves_no_process_and_keeps_the_partial_history(
    tmp_path: Path, transport: TransportName
) -> None:
    pid_file = tmp_path / "pid.txt"
    cmd = "sleep 60 & sleep 60 & echo $$ > pid.txt; wait"
    arguments = json.dumps({"cmd": cmd, "yield_time_ms": 60000})
    script = [
        Reply(text="starting the sleeps", tool_calls=(ScriptToolCall("exec_command", arguments, id="c1"),))
    ]
    with server_for("chat", script) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            turn = await s.start("sleep a while")
            async with asyncio.timeout(60):
                while not pid_file.exists() or not pid_file.read_text().strip():  # noqa: ASYNC110 - a child writes it
                    await asyncio.sleep(0.05)
            shell = int(pid_file.read_text())
            pgid = os.getpgid(shell)
            before = _group(pgid)
            await turn.interrupt()
            result = await asyncio.wait_for(turn.result(), 60)
            after = _group(pgid)
        # The stored history, as a later process reads it (over the child, the runtime is the child's).
        async with await vt.Session.resume(s.id, sdk_options(tmp_path, server)) as stored:
            history = list(stored.runtime.messages)
    assert len(before) >= 3  # the shell and its two sleeps
    assert after == []
    assert result.status == "interrupted"
    assert result.error is not None
    assert result.error.exit_code == 130
    # The items the turn produced before the interrupt: the model's words and the stopped command.
    kinds = [(type(i).__name__, getattr(i, "status", None)) for i in result.items]
    assert ("AgentMessageItem", None) in kinds or ("AgentMessageItem", "completed") in kinds
    command = [i for i in result.items if isinstance(i, vt.CommandExecutionItem)]
    assert [c.status for c in command] == ["failed"]
    # The stored history stays resumable: the call and its result as not finished.
    assert [type(m).__name__ for m in history if not isinstance(m, UserMessage)] == [
        "AssistantMessage",
        "ToolResultMessage",
    ]
    call = next(m for m in history if isinstance(m, AssistantMessage))
    done = next(m for m in history if isinstance(m, ToolResultMessage))
    assert call.content == "starting the sleeps"
    assert (done.call_id, done.is_error) == ("c1", True)
    assert "interrupted" in done.content
