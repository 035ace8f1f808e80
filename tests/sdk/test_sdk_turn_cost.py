"""What a turn cost, as a program reads it from `TurnResult`: every call the turn made, priced at the
shipped list prices, also when the turn failed; None, never $0, when a model's price is unknown.

The loopback servers report known usage; figures are hand-computed at the table's prices
(claude-sonnet-4-5: $3 in, $0.30 cache read, $3.75 cache write, $15 out per million; gpt-4.1: $2 in,
$0.50 cached in, $8 out).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import HttpError, Reply, ScriptToolCall, Step
from vtcode.testing.wire import server_for


@vt.tool(read_only=True)
def ticket(key: str) -> str:
    """Return the title of an issue."""
    return f"{key}: crash on empty input"


def _ticket_call(call_id: str, **usage: int) -> Reply:
    call = ScriptToolCall("ticket", json.dumps({"key": "A-1"}), id=call_id)
    return Reply(tool_calls=(call,), **usage)  # type: ignore[arg-type]


async def test_a_turn_result_carries_the_cost_of_its_calls_with_cache_and_reasoning_tokens(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [
        _ticket_call("c1", input_tokens=1_000, output_tokens=50, cached_input_tokens=400,
                     cache_write_tokens=100, reasoning_tokens=20),
        Reply(text="done", input_tokens=1_200, output_tokens=30, cached_input_tokens=900,
              reasoning_tokens=10),
    ]  # fmt: skip
    with server_for("anthropic", script) as server:
        options = sdk_options(tmp_path, server, wire="anthropic", tools=[ticket], transport=transport)
        async with await vt.Session.open(options) as session:
            result = await session.run("what is A-1?")
    assert result.status == "completed"
    assert result.usage == vt.Usage(
        input_tokens=2_200,
        output_tokens=80,
        cached_input_tokens=1_300,
        cache_creation_input_tokens=100,
        reasoning_tokens=30,
    )
    call1 = (500 * 3 + 400 * 0.30 + 100 * 3.75 + 50 * 15) / 1e6
    call2 = (300 * 3 + 900 * 0.30 + 30 * 15) / 1e6
    assert result.cost_usd == pytest.approx(call1 + call2)


async def test_a_failed_turn_still_reports_the_tokens_and_cost_it_spent(
    tmp_path: Path, transport: TransportName
) -> None:
    script: list[Step] = [
        _ticket_call("c1", input_tokens=1_000, output_tokens=50),
        HttpError(400, "context too long"),
    ]
    with server_for("chat", script) as server:
        options = sdk_options(tmp_path, server, wire="chat", tools=[ticket], transport=transport)
        async with await vt.Session.open(options) as session:
            result = await session.run("what is A-1?")
    assert result.status == "failed"
    assert result.error is not None
    assert result.error.kind == "bad_request"
    assert result.usage == vt.Usage(input_tokens=1_000, output_tokens=50)
    assert result.cost_usd == pytest.approx((1_000 * 2 + 50 * 8) / 1e6)


async def test_each_turn_of_a_session_reports_its_own_cost(tmp_path: Path) -> None:
    script = [
        Reply(text="one", input_tokens=1_000, output_tokens=10),
        Reply(text="two", input_tokens=2_000, output_tokens=20, cached_input_tokens=1_000),
    ]
    with server_for("chat", script) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, wire="chat")) as session:
            first = await session.run("first")
            second = await session.run("second")
    assert first.cost_usd == pytest.approx((1_000 * 2 + 10 * 8) / 1e6)
    assert second.cost_usd == pytest.approx((1_000 * 2 + 1_000 * 0.5 + 20 * 8) / 1e6)


async def test_a_model_with_no_known_price_costs_none_not_zero(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="hi", input_tokens=1_000, output_tokens=10)]) as server:
        options = dataclasses.replace(sdk_options(tmp_path, server, wire="chat"), model="acme-coder-7")
        async with await vt.Session.open(options) as session:
            result = await session.run("hello")
    assert result.status == "completed"
    assert result.usage == vt.Usage(input_tokens=1_000, output_tokens=10)
    assert result.cost_usd is None


async def test_max_budget_usd_stops_the_turn_before_the_next_request(
    tmp_path: Path, transport: TransportName
) -> None:
    script: list[Step] = [_ticket_call("c1", input_tokens=1_000, output_tokens=50), Reply(text="never asked")]
    with server_for("chat", script) as server:
        options = sdk_options(
            tmp_path, server, wire="chat", tools=[ticket], transport=transport, max_budget_usd=0.001
        )
        async with await vt.Session.open(options) as session:
            result = await session.run("what is A-1?")
        assert len(server.requests) == 1
    assert result.status == "failed"
    assert result.error is not None
    assert result.error.kind == "budget"
    # A program is told how it continues, not only the CLI's way.
    assert "Session.resume(id, options)" in result.error.hint
    assert result.cost_usd == pytest.approx((1_000 * 2 + 50 * 8) / 1e6)


@vt.tool(read_only=True)
async def wait_for_ci(ctx: vt.ToolContext) -> str:
    """Wait for the CI run to finish."""
    await asyncio.sleep(60)
    return "green"


async def test_an_interrupted_turn_keeps_the_usage_and_cost_of_the_calls_it_made(
    tmp_path: Path, transport: TransportName
) -> None:
    waiting = Reply(
        tool_calls=(ScriptToolCall("wait_for_ci", "{}", id="c1"),), input_tokens=1_000, output_tokens=50
    )
    with server_for("chat", [waiting]) as server:
        options = sdk_options(tmp_path, server, wire="chat", tools=[wait_for_ci], transport=transport)
        async with await vt.Session.open(options) as session:
            turn = await session.start("is CI green?")
            async for event in turn.events():
                if isinstance(event, vt.ItemStarted) and isinstance(event.item, vt.ToolCallItem):
                    await turn.interrupt()
            result = await turn.result()
    assert result.status == "interrupted"
    assert result.usage == vt.Usage(input_tokens=1_000, output_tokens=50)
    assert result.cost_usd == pytest.approx((1_000 * 2 + 50 * 8) / 1e6)
