"""Many sessions in one loop: 50 cancelled inside one TaskGroup leave no stray task or exception, 20 run
side by side without crossing, and an events() iterator closed from another task harms nothing."""

from __future__ import annotations

import asyncio
import gc
import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

import vtcode.sdk as vt
from vtcode.protocol.messages import UserMessage
from vtcode.sdk.testing import Reply, ScriptedModel, ScriptToolCall
from vtcode.sdk.transport import TransportName

CANCELLED_SESSIONS = 50
CONCURRENT_SESSIONS = 20
CONCURRENT_CHILDREN = 3


@pytest.mark.filterwarnings("error")
async def test_fifty_sessions_cancelled_inside_one_task_group_leave_no_stray_tasks_or_errors(
    tmp_path: Path,
) -> None:
    loop_errors: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _loop, context: loop_errors.append(context))
    started: list[str] = []
    never = asyncio.Event()

    @vt.tool(read_only=True)
    async def wait_forever(ctx: vt.ToolContext) -> str:
        """Wait until cancelled."""
        started.append(ctx.session_id)
        await never.wait()
        return "unreachable"

    call = ScriptToolCall("wait_forever", "{}", id="c1")
    sessions = []
    for i in range(CANCELLED_SESSIONS):
        space = tmp_path / f"s{i}"
        space.mkdir()
        model = ScriptedModel([Reply(tool_calls=(call,)), Reply(text="after")])
        options = vt.Options(workspace=space, model_client=model, tools=[wait_forever], ephemeral=True)
        sessions.append(await vt.Session.open(options))

    async def run_all() -> None:
        async with asyncio.TaskGroup() as group:
            for session in sessions:
                group.create_task(session.run("wait"))

    runs = asyncio.create_task(run_all())
    async with asyncio.timeout(120):
        while len(started) < CANCELLED_SESSIONS:  # noqa: ASYNC110 - the tools report in
            await asyncio.sleep(0.02)
    runs.cancel()
    with pytest.raises(asyncio.CancelledError):
        await runs
    # Each session ended its turn before the cancellation came back, and takes the next one.
    after = await sessions[0].run("again")
    await asyncio.gather(*(s.close() for s in sessions))
    gc.collect()
    await asyncio.sleep(0)
    assert sorted(set(started)) == sorted(started)
    assert after.final_text == "after"
    assert loop_errors == []


async def test_twenty_sessions_run_concurrently_without_crossing_events_approvals_or_usage(
    tmp_path: Path, transport: TransportName
) -> None:
    # Over the transport, a few children show the same routing (each costs a process start).
    count = CONCURRENT_SESSIONS if transport == "in-process" else CONCURRENT_CHILDREN

    @vt.tool(needs_approval=True)
    async def mark(ctx: vt.ToolContext, label: str) -> str:
        """Write `label` into the workspace's mark.txt."""
        await asyncio.sleep(0.01)
        (ctx.workspace / "mark.txt").write_text(label)
        return f"marked {label}"

    async def one(i: int) -> tuple[vt.TurnResult[Any], list[vt.Event], ScriptedModel, str]:
        space = tmp_path / f"w{i}"
        space.mkdir()
        label = f"tag-{i:02d}"
        model = ScriptedModel(
            [
                Reply(tool_calls=(ScriptToolCall("mark", json.dumps({"label": label}), id="c1"),)),
                Reply(text=f"done {label}", input_tokens=100 + i, output_tokens=i + 1),
            ]
        )
        options = vt.Options(
            workspace=space, model_client=model, tools=[mark], approval="ask", transport=transport
        )
        async with await vt.Session.open(options) as session:
            turn = await session.start(f"mark {label}")
            events: list[vt.Event] = []
            async for event in turn.events():
                events.append(event)
                if isinstance(event, vt.ApprovalRequested):
                    assert label in event.display
                    await turn.approve(event.request_id, vt.Allow())
            return await turn.result(), events, model, session.id

    outcomes = await asyncio.gather(*(one(i) for i in range(count)))
    ids = [session_id for *_, session_id in outcomes]
    assert len(set(ids)) == count
    for i, (result, events, model, session_id) in enumerate(outcomes):
        label = f"tag-{i:02d}"
        assert (tmp_path / f"w{i}" / "mark.txt").read_text() == label
        assert result.final_text == f"done {label}"
        assert result.session_id == session_id
        # Usage: the two replies of this session's own model, nobody else's.
        assert (result.usage.input_tokens, result.usage.output_tokens) == (10 + 100 + i, 5 + i + 1)
        approvals = [e for e in events if isinstance(e, vt.ApprovalRequested)]
        assert len(approvals) == 1
        # Every event and every request of this session names its own label only.
        shown = "".join(msgspec.json.encode(e).decode() for e in events)
        assert set(re.findall(r"tag-\d\d", shown)) == {label}
        prompts = [m.content for r in model.requests for m in r.messages if isinstance(m, UserMessage)]
        assert set(re.findall(r"tag-\d\d", " ".join(prompts))) == {label}


async def test_closing_events_from_another_task_neither_cancels_the_turn_nor_raises(
    tmp_path: Path, transport: TransportName
) -> None:
    gate = asyncio.Event()

    @vt.tool(read_only=True)
    async def slow() -> str:
        """Wait for the gate."""
        await gate.wait()
        return "opened"

    model = ScriptedModel(
        [Reply(tool_calls=(ScriptToolCall("slow", "{}", id="c1"),)), Reply(text="finished")]
    )
    options = vt.Options(
        workspace=tmp_path, model_client=model, tools=[slow], ephemeral=True, transport=transport
    )
    async with await vt.Session.open(options) as session:
        turn = await session.start("go")
        stream = turn.events()
        first = await anext(stream)
        # Another task closes the iterator while the turn runs.
        await asyncio.create_task(stream.aclose())
        gate.set()
        result = await asyncio.wait_for(turn.result(), 60)
        with pytest.raises(StopAsyncIteration):
            await anext(stream)
    assert isinstance(first, (vt.ThreadStarted, vt.TurnStarted))
    assert (result.status, result.final_text) == ("completed", "finished")
