"""The session's accounting, wired: the ledger, the clients tagged by source, the budget, `usage.json`.

Wiring builds one `UsageTracking`; the turn loop gets `client("main")`, the compactor
`client("compaction")`. A subagent is a child session opened with `SessionOptions(usage_parent=
parent.usage_tracking, usage_source=subagent_source(id))`: its calls go into the parent's ledger under
that source and count against the parent's budget. The account is saved at the end of every turn and
when the session closes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from vtcode.config.schema import Settings
from vtcode.core.usage_ledger import UsageLedger
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.events import Notice, UsageSummary
from vtcode.protocol.usage import UsageRow
from vtcode.providers.base import ModelClient
from vtcode.providers.price_table import price_book
from vtcode.runtime.budget import Budget
from vtcode.runtime.hooks import TurnEnd, TurnHooks
from vtcode.runtime.metered_client import MeteredClient
from vtcode.runtime.stored_history import StoredHistory
from vtcode.store.usage_file import read_usage, write_usage

log = logging.getLogger(__name__)


class UsageTracking:
    """One session's ledger with what feeds it and what reads it."""

    ledger: UsageLedger
    budget: Budget

    def __init__(
        self,
        settings: Settings,
        client: ModelClient,
        history: StoredHistory,
        notify: Callable[[Notice], None],
        *,
        parent: UsageTracking | None = None,
    ) -> None:
        self._client = client
        self._history = history
        self._saved = 0
        self._parent = parent
        if parent is not None:
            # A child session: the parent's ledger and budget (its calls count against the run's
            # budget); the parent saves the account.
            self._keep_file = True
            self.ledger = parent.ledger
            self.budget = parent.budget
            return
        handle = history.handle
        # A usage file vtcode cannot read is kept as it is (not overwritten) and said once.
        self._keep_file = False
        prior: tuple[UsageRow, ...] = ()
        try:
            prior = read_usage(handle.dir) if handle is not None else ()
        except VtcodeError as exc:
            self._keep_file = True
            notify(Notice(level="warning", message=f"usage of earlier runs not counted: {exc.user_text()}"))
        self.ledger = UsageLedger(price_book(settings.pricing), prior)
        self.budget = Budget(
            max_usd=settings.agent.max_budget_usd,
            max_tokens=settings.agent.max_tokens_total,
            notify=notify,
            stored=not history.ephemeral,
        )
        if self.budget.active:
            self.ledger.subscribe(self.budget.observe)

    def client(self, source: str) -> MeteredClient:
        """The session's model client, recording its calls under `source`."""
        return MeteredClient(self._client, self.ledger, source)

    def install(self, hooks: TurnHooks) -> None:
        """Check the budget before every request (first, before compaction may call the model) and save
        the account at the end of every turn."""
        if self.budget.active:
            hooks.before_request.insert(0, self.budget.before_request)
        if self._parent is None:
            hooks.end_of_turn.append(self._turn_ended)

    def summary(self) -> UsageSummary:
        """This run's usage as the event a headless run ends with."""
        report = self.ledger.report("run")
        return UsageSummary(
            scope="run",
            rows=report.rows,
            requests=report.requests,
            usage=report.usage,
            api_ms=report.api_ms,
            cost_usd=report.cost_usd,
            known_cost_usd=report.known_cost_usd,
            unpriced=report.unpriced,
            prices_taken=report.prices_taken,
        )

    def save(self) -> None:
        """Write the session's account to `usage.json` when a call was recorded since the last save."""
        handle = self._history.handle
        calls = self.ledger.run_totals().calls
        if handle is None or self._history.ephemeral or self._keep_file or calls == self._saved:
            return
        try:
            write_usage(handle.dir, self.ledger.rows("session"))
            self._saved = calls
        except VtcodeError as exc:
            # The account is a record, not state: losing it must not stop the session.
            log.warning("usage not saved: %s", exc.user_text())

    async def _turn_ended(self, end: TurnEnd) -> None:
        self.save()
