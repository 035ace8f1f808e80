"""A budget warns once past 80 % and stops at the next request once reached."""

from __future__ import annotations

import pytest

from vtcode.core.context_pressure import ContextPressure
from vtcode.core.usage_ledger import RunTotals
from vtcode.protocol.errors import BudgetExceededError
from vtcode.protocol.events import Notice
from vtcode.runtime.budget import Budget
from vtcode.runtime.hooks import BeforeRequest


def _totals(cost: float, tokens: int = 0, unknown: bool = False) -> RunTotals:
    return RunTotals(tokens=tokens, cost_usd=cost, cost_unknown=unknown)


async def test_the_warning_comes_once_and_the_stop_at_the_next_boundary() -> None:
    said: list[Notice] = []
    budget = Budget(max_usd=1.0, max_tokens=None, notify=said.append)
    pressure = ContextPressure(context_window=1_000, estimated_tokens=10)
    view = BeforeRequest(turn=1, request_no=2, messages=(), pressure=pressure)
    for cost in (0.5, 0.81, 0.9, 0.95):
        budget.observe(_totals(cost))
        assert await budget.before_request(view) is None
    assert [n.message for n in said] == ["this run used 81% of its budget: $0.8100 of $1.0000"]
    budget.observe(_totals(1.2))
    with pytest.raises(BudgetExceededError) as stopped:
        await budget.before_request(view)
    assert stopped.value.kind == "budget"
    assert "$1.2000 of its budget of $1.0000 (--max-budget-usd)" in stopped.value.message
    assert said[-1].message.endswith("it stops before the next model request")


def test_an_unknown_price_is_said_once_and_tokens_still_count() -> None:
    said: list[Notice] = []
    budget = Budget(max_usd=1.0, max_tokens=100, notify=said.append)
    budget.observe(_totals(0.0, tokens=50, unknown=True))
    budget.observe(_totals(0.0, tokens=85, unknown=True))
    messages = [n.message for n in said]
    assert len([m for m in messages if "cannot be checked" in m]) == 1
    assert "this run used 85% of its budget: 85 tokens of 100 tokens" in messages
