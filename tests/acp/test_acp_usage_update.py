"""ACP `usage_update`: after each prompt turn the editor learns the context in use and the session's cost."""

from __future__ import annotations

from pathlib import Path

import pytest
from acp import text_block
from acp.schema import UsageUpdate

from tests.acp.harness import acp_agent
from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


async def test_each_turn_sends_a_usage_update_with_the_cumulative_cost(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    # gpt-4.1 list prices: $2 per million input tokens, $8 per million output tokens.
    script = [
        Reply(text="one", input_tokens=50_000, output_tokens=1_000),
        Reply(text="two", input_tokens=60_000, output_tokens=500),
    ]
    with server_for("chat", script) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            await agent.conn.prompt(session_id=session_id, prompt=[text_block("first")])
            await agent.conn.prompt(session_id=session_id, prompt=[text_block("second")])
            updates = [u for u in agent.client.updates if isinstance(u, UsageUpdate)]
    first, second = updates
    assert (first.used, second.used) == (50_000, 60_000)
    assert first.size == second.size > 60_000
    assert first.cost is not None
    assert second.cost is not None
    assert first.cost.currency == "USD"
    assert first.cost.amount == pytest.approx((50_000 * 2 + 1_000 * 8) / 1e6)
    assert second.cost.amount == pytest.approx((110_000 * 2 + 1_500 * 8) / 1e6)
