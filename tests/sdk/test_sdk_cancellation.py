"""Cancelling the task that awaits `run()` interrupts the turn, stops its commands, and re-raises."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from pathlib import Path
from typing import Any

import psutil
import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.server import WireServer
from vtcode.testing.wire import server_for

SESSIONS = 10


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.filterwarnings("error")
async def test_cancelling_a_task_group_of_runs_interrupts_every_turn_cleanly(tmp_path: Path) -> None:
    loop_errors: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _loop, context: loop_errors.append(context))
    arguments = json.dumps({"cmd": "echo $$ > pid.txt; exec sleep 60", "yield_time_ms": 60000})
    spaces = [tmp_path / f"s{i}" for i in range(SESSIONS)]
    with contextlib.ExitStack() as stack:
        servers: list[WireServer] = []
        for space in spaces:
            space.mkdir()
            call = ScriptToolCall("exec_command", arguments, id="c1")
            servers.append(stack.enter_context(server_for("chat", [Reply(tool_calls=(call,))])))
        sessions = await asyncio.gather(
            *(
                vt.Session.open(sdk_options(space, server))
                for space, server in zip(spaces, servers, strict=True)
            )
        )

        async def run_all() -> None:
            async with asyncio.TaskGroup() as group:
                for session in sessions:
                    group.create_task(session.run("wait"))

        runs = asyncio.create_task(run_all())
        pid_files = [space / "pid.txt" for space in spaces]
        async with asyncio.timeout(120):
            while not all(p.exists() and p.read_text().strip() for p in pid_files):  # noqa: ASYNC110 - children write them
                await asyncio.sleep(0.05)
        pids = [int(p.read_text()) for p in pid_files]
        runs.cancel()
        with pytest.raises(asyncio.CancelledError):
            await runs
        # Every turn was interrupted, and its command ended, before the cancellation came back.
        alive = [pid for pid in pids if _alive(pid)]
        # The sessions take new turns afterwards.
        servers[0].add(Reply(text="after"))
        after = await sessions[0].run("again")
        await asyncio.gather(*(s.close() for s in sessions))
    gc.collect()
    assert alive == []
    assert after.final_text == "after"
    assert loop_errors == []


async def test_cancelling_a_wait_for_a_started_turns_result_interrupts_it(
    tmp_path: Path, transport: TransportName
) -> None:
    arguments = json.dumps({"cmd": "echo $$ > pid.txt; exec sleep 60", "yield_time_ms": 60000})
    pid_file = tmp_path / "pid.txt"
    with server_for(
        "chat", [Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id="c1"),))]
    ) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            turn = await s.start("wait")
            async with asyncio.timeout(60):
                while not pid_file.exists() or not pid_file.read_text().strip():  # noqa: ASYNC110 - a child writes it
                    await asyncio.sleep(0.05)
            waiter = asyncio.create_task(turn.result())
            await asyncio.sleep(0)
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
            ended = turn.done
            result = await turn.result()
    assert ended
    assert result.status == "interrupted"
    assert not _alive(int(pid_file.read_text()))
