"""`Session.usage()`: the session's account as a program reads it, by source and model, as the loopback
server reported the calls (gpt-4.1 at $2 in, $0.50 cached in, $8 out per million)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.core.compaction.summary import SECTIONS
from vtcode.protocol.errors import UsageError
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall, Step
from vtcode.testing.wire import server_for

SUMMARY = "\n".join(f"## {name}\nsummary-mark-42" for name in SECTIONS)


def _cost(inp: int, out: int, cached: int = 0) -> float:
    return ((inp - cached) * 2 + cached * 0.5 + out * 8) / 1e6


def _long(n: int) -> Reply:
    return Reply(text=f"answer-{n} " + "word " * 1500, input_tokens=3_000, output_tokens=2_000)


async def test_session_usage_counts_the_turns_and_the_compaction_by_source(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [_long(1), _long(2), _long(3), Reply(text=SUMMARY, input_tokens=9_000, output_tokens=300)]
    with server_for("chat", script) as server:
        options = sdk_options(
            tmp_path, server, wire="chat", transport=transport, config=("context.max_context_tokens=12000",)
        )
        async with await vt.Session.open(options) as session:
            for n in range(3):
                await session.run(f"question {n}")
            assert await session.compact() is not None
            report = await session.usage()
    assert isinstance(report, vt.UsageReport)
    assert report.session_id == session.id
    rows = {row.source: row for row in report.rows}
    assert set(rows) == {"main", "compaction"}
    assert rows["main"].model == rows["compaction"].model == "gpt-4.1"
    assert rows["main"].requests == 3
    assert rows["main"].usage == vt.Usage(input_tokens=9_000, output_tokens=6_000)
    assert rows["main"].cost_usd == pytest.approx(3 * _cost(3_000, 2_000))
    assert rows["compaction"].requests == 1
    assert rows["compaction"].cost_usd == pytest.approx(_cost(9_000, 300))
    assert report.requests == 4
    assert report.cost_usd == pytest.approx(3 * _cost(3_000, 2_000) + _cost(9_000, 300))


async def test_a_resumed_sessions_usage_includes_its_earlier_runs(tmp_path: Path) -> None:
    script = [
        Reply(text="one", input_tokens=1_000, output_tokens=10),
        Reply(text="two", input_tokens=2_000, output_tokens=20, cached_input_tokens=1_000),
    ]
    with server_for("chat", script) as server:
        options = sdk_options(tmp_path, server, wire="chat")
        async with await vt.Session.open(options) as first:
            await first.run("first")
        async with await vt.Session.resume(first.id, options) as later:
            await later.run("second")
            report = await later.usage()
    assert report.requests == 2
    assert report.usage == vt.Usage(input_tokens=3_000, output_tokens=30, cached_input_tokens=1_000)
    assert report.cost_usd == pytest.approx(_cost(1_000, 10) + _cost(2_000, 20, cached=1_000))


def test_sync_session_usage_and_an_unknown_price(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="hi", input_tokens=1_000, output_tokens=10)]) as server:
        options = dataclasses.replace(sdk_options(tmp_path, server, wire="chat"), model="acme-coder-7")
        with vt.SyncSession.open(options) as session:
            session.run("hello")
            report = session.usage()
        with pytest.raises(UsageError):
            session.usage()
    assert report.usage == vt.Usage(input_tokens=1_000, output_tokens=10)
    assert report.cost_usd is None
    assert report.unpriced == ("acme-coder-7",)


async def test_a_subagents_calls_count_in_the_turn_and_under_their_own_source(tmp_path: Path) -> None:
    brief = {"subagent_type": "explore", "description": "look around", "prompt": "find the loader"}
    task = ScriptToolCall("task", json.dumps(brief), id="t1")
    script: list[Step] = [
        Reply(tool_calls=(task,), input_tokens=1_000, output_tokens=50),
        Reply(text="it is in loader.py", input_tokens=4_000, output_tokens=100, cached_input_tokens=2_000),
        Reply(text="done", input_tokens=1_500, output_tokens=20),
    ]
    with server_for("chat", script) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, wire="chat")) as session:
            result = await session.run("where is the loader?")
            report = await session.usage()
    child = _cost(4_000, 100, cached=2_000)
    main = _cost(1_000, 50) + _cost(1_500, 20)
    assert result.status == "completed"
    assert result.usage == vt.Usage(input_tokens=6_500, output_tokens=170, cached_input_tokens=2_000)
    assert result.cost_usd == pytest.approx(main + child)
    rows = {row.source: row for row in report.rows}
    assert rows["main"].cost_usd == pytest.approx(main)
    (subagent,) = (row for source, row in rows.items() if source.startswith("subagent:"))
    assert subagent.requests == 1
    assert subagent.cost_usd == pytest.approx(child)
