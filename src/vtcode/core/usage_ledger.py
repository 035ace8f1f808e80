"""Every model call of a session, added up by source and model, with its cost at list prices.

A source says why a call was made: `main` (the agent's own requests), `compaction` (summaries and the
provider's compaction), `subagent:<id>`, `web_fetch` (extraction of fetched pages). The ledger keeps the
session's earlier runs (`prior`, from the store) apart from this run's calls, which budgets count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Literal

import msgspec

from vtcode.core.pricing import PriceBook, call_cost
from vtcode.protocol.messages import Usage
from vtcode.protocol.usage import UsageReport, UsageRow

SOURCE_MAIN = "main"
SOURCE_COMPACTION = "compaction"
SOURCE_WEB_FETCH = "web_fetch"


def subagent_source(agent_id: str) -> str:
    """The source of the calls a subagent makes (`subagent:<id>`)."""
    return f"subagent:{agent_id}"


class RunTotals(msgspec.Struct, frozen=True):
    """This run's calls so far (what budgets count): tokens in and out, cost, whether a price was missing."""

    tokens: int
    cost_usd: float
    cost_unknown: bool
    calls: int = 0


class LedgerMark(msgspec.Struct, frozen=True):
    """The ledger's rows of this run at one moment (`UsageLedger.mark`)."""

    rows: tuple[UsageRow, ...]


class TurnSpend(msgspec.Struct, frozen=True):
    """What the calls since a mark used: tokens of every source but compaction (as a turn's `usage`
    counts them) and the cost of all of them (None: a model's price is unknown)."""

    usage: Usage
    cost_usd: float | None


Listener = Callable[[RunTotals], None]
Scope = Literal["session", "run"]


class UsageLedger:
    """Records calls as they complete; `report()` is the session's account, `report("run")` this run's."""

    def __init__(self, prices: PriceBook, prior: Iterable[UsageRow] = ()) -> None:
        self.prices = prices
        self._prior = tuple(prior)
        self._run: dict[tuple[str, str], UsageRow] = {}
        self._run_tokens = 0
        self._run_calls = 0
        self._run_cost = 0.0
        self._run_unknown = False
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with this run's totals after every recorded call (budgets)."""
        self._listeners.append(listener)

    def record(self, source: str, provider: str, model: str, usage: Usage, api_seconds: float) -> None:
        """Add one completed call."""
        cost = call_cost(usage, self.prices.price(provider, model))
        key = (source, model)
        call = UsageRow(
            source=source,
            model=model,
            provider=provider,
            requests=1,
            usage=usage,
            api_ms=round(api_seconds * 1000),
            cost_usd=cost,
        )
        seen = self._run.get(key)
        self._run[key] = call if seen is None else _add(seen, call)
        self._run_tokens += usage.input_tokens + usage.output_tokens
        self._run_calls += 1
        if cost is None:
            self._run_unknown = True
        else:
            self._run_cost += cost
        totals = self.run_totals()
        for listener in self._listeners:
            listener(totals)

    def run_totals(self) -> RunTotals:
        """This run's calls so far."""
        return RunTotals(
            tokens=self._run_tokens,
            cost_usd=self._run_cost,
            cost_unknown=self._run_unknown,
            calls=self._run_calls,
        )

    def rows(self, scope: Scope = "session") -> tuple[UsageRow, ...]:
        """One row per (source, model), main first; "session" adds this run to the earlier ones."""
        merged: dict[tuple[str, str], UsageRow] = {}
        for row in (*(self._prior if scope == "session" else ()), *self._run.values()):
            key = (row.source, row.model)
            merged[key] = _add(merged.get(key), row)
        return tuple(sorted(merged.values(), key=lambda r: r.source != SOURCE_MAIN))

    def mark(self) -> LedgerMark:
        """Where the ledger stands now; `since(mark)` is what was recorded after (one turn's calls)."""
        return LedgerMark(rows=tuple(self._run.values()))

    def since(self, mark: LedgerMark) -> TurnSpend:
        """The calls recorded after `mark`: their tokens (compaction apart) and their cost."""
        before = {(row.source, row.model): row for row in mark.rows}
        usage = Usage()
        cost: float | None = 0.0
        for key, row in self._run.items():
            seen = before.get(key)
            if seen is not None and seen.requests == row.requests:
                continue
            if row.source != SOURCE_COMPACTION:
                usage = usage + (row.usage if seen is None else _minus(row.usage, seen.usage))
            # A row whose cost became unknown (a call with no price) stays so: the turn's cost is then
            # unknown too, even when the unpriced call came before the mark (never a wrong figure).
            if cost is None or row.cost_usd is None:
                cost = None
            else:
                earlier = seen.cost_usd if seen is not None else None
                cost += row.cost_usd - (earlier or 0.0)
        # The differences of sums carry float noise in the last digits (0.0024000000000000002).
        return TurnSpend(usage=usage, cost_usd=None if cost is None else round(cost, 12))

    def report(self, scope: Scope = "session", session_id: str = "") -> UsageReport:
        """The account of the whole session (earlier runs included) or of this run."""
        return summarize(self.rows(scope), session_id=session_id, prices_taken=self.prices.taken)


def summarize(rows: Sequence[UsageRow], *, session_id: str = "", prices_taken: str = "") -> UsageReport:
    """The totals of `rows`."""
    usage = Usage()
    for row in rows:
        usage = usage + row.usage
    unpriced = tuple(dict.fromkeys(r.model for r in rows if r.cost_usd is None))
    known = sum(r.cost_usd for r in rows if r.cost_usd is not None)
    return UsageReport(
        session_id=session_id,
        rows=tuple(rows),
        requests=sum(r.requests for r in rows),
        usage=usage,
        api_ms=sum(r.api_ms for r in rows),
        cost_usd=None if unpriced else known,
        known_cost_usd=known,
        unpriced=unpriced,
        prices_taken=prices_taken,
    )


def by_model(rows: Sequence[UsageRow]) -> dict[str, UsageRow]:
    """The rows added up per model, all sources together (`source` is "all")."""
    merged: dict[str, UsageRow] = {}
    for row in rows:
        merged[row.model] = _add(merged.get(row.model), msgspec.structs.replace(row, source="all"))
    return merged


def by_source(rows: Sequence[UsageRow]) -> dict[str, UsageRow]:
    """The rows added up per source, all models together (`model` is "all")."""
    merged: dict[str, UsageRow] = {}
    for row in rows:
        merged[row.source] = _add(merged.get(row.source), msgspec.structs.replace(row, model="all"))
    return merged


def _minus(total: Usage, part: Usage) -> Usage:
    return Usage(
        input_tokens=total.input_tokens - part.input_tokens,
        output_tokens=total.output_tokens - part.output_tokens,
        cached_input_tokens=total.cached_input_tokens - part.cached_input_tokens,
        cache_creation_input_tokens=total.cache_creation_input_tokens - part.cache_creation_input_tokens,
        reasoning_tokens=total.reasoning_tokens - part.reasoning_tokens,
    )


def _add(seen: UsageRow | None, row: UsageRow) -> UsageRow:
    if seen is None:
        return row
    return msgspec.structs.replace(
        seen,
        requests=seen.requests + row.requests,
        usage=seen.usage + row.usage,
        api_ms=seen.api_ms + row.api_ms,
        cost_usd=None if seen.cost_usd is None or row.cost_usd is None else seen.cost_usd + row.cost_usd,
    )
