"""The ledger adds calls up by source and model; earlier runs count for the session, not for budgets."""

from __future__ import annotations

import pytest

from vtcode.core.pricing import Price, PriceBook
from vtcode.core.usage_ledger import RunTotals, UsageLedger, by_model, by_source, subagent_source
from vtcode.protocol.messages import Usage
from vtcode.protocol.usage import UsageRow

BOOK = PriceBook({"m": Price(input=1.0, output=2.0)})


def test_calls_add_up_per_source_and_model_and_an_unknown_price_sticks() -> None:
    ledger = UsageLedger(BOOK)
    seen: list[RunTotals] = []
    ledger.subscribe(seen.append)
    ledger.record("main", "p", "m", Usage(input_tokens=1_000, output_tokens=100), 0.5)
    ledger.record("main", "p", "m", Usage(input_tokens=2_000, output_tokens=50), 0.25)
    ledger.record(subagent_source("a1"), "p", "other", Usage(input_tokens=10, output_tokens=1), 0.1)
    report = ledger.report()
    main, sub = report.rows
    assert (main.source, main.requests, main.api_ms) == ("main", 2, 750)
    assert main.usage == Usage(input_tokens=3_000, output_tokens=150)
    assert main.cost_usd == pytest.approx((3_000 + 300) / 1e6)
    assert (sub.source, sub.cost_usd) == ("subagent:a1", None)
    assert report.cost_usd is None
    assert report.known_cost_usd == pytest.approx((3_000 + 300) / 1e6)
    assert report.unpriced == ("other",)
    last = seen[-1]
    assert (last.tokens, last.cost_unknown, last.calls) == (3_161, True, 3)
    assert last.cost_usd == pytest.approx(0.0033)
    assert set(by_model(report.rows)) == {"m", "other"}
    assert set(by_source(report.rows)) == {"main", "subagent:a1"}


def test_earlier_runs_count_for_the_session_but_not_for_this_run() -> None:
    earlier = UsageRow(source="main", model="m", requests=4, usage=Usage(input_tokens=500), cost_usd=0.0005)
    ledger = UsageLedger(BOOK, [earlier])
    ledger.record("main", "p", "m", Usage(input_tokens=1_000), 0.0)
    assert ledger.report().requests == 5
    assert ledger.report().cost_usd == pytest.approx(0.0015)
    assert ledger.report("run").requests == 1
    assert ledger.run_totals().cost_usd == pytest.approx(0.001)
