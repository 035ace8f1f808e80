"""Turn handles: many sessions in one loop, interrupts, one turn at a time, breaking out of events()."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import psutil
import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options, tool_results
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


@vt.tool(read_only=True)
async def whoami(ctx: vt.ToolContext, label: str) -> str:
    """Tell which session runs this call."""
    await asyncio.sleep(0.05)
    return f"{label} in {ctx.session_id} at {ctx.workspace.name}"


async def test_two_sessions_run_concurrently_in_one_loop_without_crossing(
    tmp_path: Path, transport: TransportName
) -> None:
    spaces = [tmp_path / "one", tmp_path / "two"]
    for space in spaces:
        space.mkdir()

    def script(label: str) -> list[Reply]:
        call = ScriptToolCall("whoami", json.dumps({"label": label}), id="c1")
        return [Reply(tool_calls=(call,), delay_between=0.01), Reply(text=f"answer {label}")]

    with server_for("chat", script("one")) as first, server_for("anthropic", script("two")) as second:
        opened = await asyncio.gather(
            vt.Session.open(sdk_options(spaces[0], first, tools=[whoami], transport=transport)),
            vt.Session.open(
                sdk_options(spaces[1], second, wire="anthropic", tools=[whoami], transport=transport)
            ),
        )
        try:
            results = await asyncio.gather(opened[0].run("ask one"), opened[1].run("ask two"))
        finally:
            await asyncio.gather(*(s.close() for s in opened))
        bodies = ([r.json() for r in first.requests], [r.json() for r in second.requests])
    assert opened[0].id != opened[1].id
    assert [r.final_text for r in results] == ["answer one", "answer two"]
    assert [r.session_id for r in results] == [opened[0].id, opened[1].id]
    assert tool_results(bodies[0][1], "chat") == [f"one in {opened[0].id} at one"]
    assert tool_results(bodies[1][1], "anthropic") == [f"two in {opened[1].id} at two"]
    assert "ask two" not in json.dumps(bodies[0])
    assert "ask one" not in json.dumps(bodies[1])


async def test_interrupting_a_turn_ends_its_command_process_and_the_turn_as_interrupted(
    tmp_path: Path,
    transport: TransportName,
) -> None:
    pid_file = tmp_path / "pid.txt"
    arguments = json.dumps({"cmd": "echo $$ > pid.txt; exec sleep 60", "yield_time_ms": 60000})
    script = [Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id="c1"),))]
    with server_for("chat", script) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            turn = await s.start("wait")
            async with asyncio.timeout(60):
                while not pid_file.exists() or not pid_file.read_text().strip():  # noqa: ASYNC110 - a child writes it
                    await asyncio.sleep(0.05)
            pid = int(pid_file.read_text())
            await turn.interrupt()
            result = await asyncio.wait_for(turn.result(), 60)
            alive = _alive(pid)
            # The session takes the next turn after an interrupt.
            server.add(Reply(text="still here"))
            again = await s.run("go on")
    assert result.status == "interrupted"
    assert result.error is not None
    assert result.error.exit_code == 130
    assert not alive
    assert again.final_text == "still here"


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


async def test_a_second_turn_while_one_runs_is_refused(tmp_path: Path, transport: TransportName) -> None:
    with server_for("chat", [Reply(text="slow", delay_before=0.5), Reply(text="next")]) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            turn = await s.start("first")
            with pytest.raises(vt.QueueFullError, match="already running"):
                await s.start("second")
            assert (await turn.result()).final_text == "slow"
            assert (await s.run("second")).final_text == "next"


async def test_breaking_out_of_events_neither_cancels_the_turn_nor_loses_its_result(
    tmp_path: Path, transport: TransportName
) -> None:
    with server_for("chat", [Reply(text="the whole answer", delay_between=0.01)]) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            turn = await s.start("talk")
            async for event in turn.events():
                if isinstance(event, vt.TurnStarted):
                    break
            result = await asyncio.wait_for(turn.result(), 60)
    assert (result.status, result.final_text) == ("completed", "the whole answer")


async def test_the_second_turns_events_start_at_its_own_turn(
    tmp_path: Path, transport: TransportName
) -> None:
    with server_for("anthropic", [Reply(text="one"), Reply(text="two")]) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, wire="anthropic", transport=transport)
        ) as s:
            await s.run("first")
            turn = await s.start("second")
            events = [event async for event in turn.events()]
    deltas = "".join(e.delta for e in events if isinstance(e, vt.ItemDelta))
    assert [type(e).__name__ for e in events] == [
        "TurnStarted",
        "ItemStarted",
        "ItemDelta",
        "ItemCompleted",
        "TurnCompleted",
    ]
    assert deltas == "two"


async def test_interrupting_a_sync_tool_sets_its_cancelled_flag(
    tmp_path: Path, transport: TransportName
) -> None:
    started, stopped = threading.Event(), threading.Event()

    @vt.tool
    def watch(ctx: vt.ToolContext, seconds: float) -> str:
        """Wait until cancelled or `seconds` pass."""
        started.set()
        if ctx.cancelled.wait(seconds):
            stopped.set()
            return "cancelled"
        return "timed out"

    call = ScriptToolCall("watch", json.dumps({"seconds": 60}), id="c1")
    with server_for("chat", [Reply(tool_calls=(call,))]) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, tools=[watch], transport=transport)
        ) as s:
            turn = await s.start("watch")
            assert await asyncio.to_thread(started.wait, 60)
            await turn.interrupt()
            result = await asyncio.wait_for(turn.result(), 60)
            # The worker thread sees the flag and returns long before its 60 s.
            assert await asyncio.to_thread(stopped.wait, 30)
    assert result.status == "interrupted"


async def test_steering_reaches_the_running_turns_next_request(
    tmp_path: Path, transport: TransportName
) -> None:
    gate = asyncio.Event()

    @vt.tool(read_only=True)
    async def slow() -> str:
        """Wait for the gate."""
        await gate.wait()
        return "opened"

    call = ScriptToolCall("slow", "{}", id="c1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="done")]) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, tools=[slow], transport=transport)
        ) as s:
            with pytest.raises(vt.VtcodeError, match="no turn is running"):
                await s.steer("too early")
            turn = await s.start("go")
            async for event in turn.events():
                if isinstance(event, vt.ItemStarted) and isinstance(event.item, vt.ToolCallItem):
                    await turn.steer("also mention the weather")
                    gate.set()
            result = await turn.result()
        second = json.dumps(server.requests[1].json()["messages"])
    assert "also mention the weather" in second
    assert "too early" not in second
    assert result.status == "completed"
