"""Budgets of one run (`--max-budget-usd`, `--max-tokens-total`): a warning at 80 %, a stop at 100 %.

The ledger tells the budget after every call; the stop happens at the next boundary, before a model
request, so the history is whole and the session can be resumed (with a larger budget, or none).
"""

from __future__ import annotations

from collections.abc import Callable

from vtcode.core.pricing import format_cost
from vtcode.core.usage_ledger import RunTotals
from vtcode.protocol.errors import BudgetExceededError
from vtcode.protocol.events import Notice
from vtcode.runtime.hooks import BeforeRequest, HistoryReplacement

WARN_SHARE = 0.8


class Budget:
    """Watches this run's totals against the configured limits (either may be None)."""

    def __init__(
        self,
        *,
        max_usd: float | None,
        max_tokens: int | None,
        notify: Callable[[Notice], None],
        stored: bool = True,
    ) -> None:
        self.max_usd = max_usd
        # Whether the session is stored, so a stopped run can be continued (not `--ephemeral`).
        self.stored = stored
        self.max_tokens = max_tokens
        self._notify = notify
        self._warned: set[str] = set()
        self._exceeded: str | None = None

    @property
    def active(self) -> bool:
        """Whether any limit is set."""
        return self.max_usd is not None or self.max_tokens is not None

    def observe(self, totals: RunTotals) -> None:
        """After a call: warn once per limit past 80 %, remember the first limit reached."""
        if self.max_usd is not None:
            if totals.cost_unknown:
                self._warn_once(
                    "unpriced",
                    "the budget in USD cannot be checked: a model's price is unknown (add it under "
                    '[pricing."MODEL"]); its calls are not counted',
                )
            self._check("USD", totals.cost_usd, self.max_usd, format_cost)
        if self.max_tokens is not None:
            self._check("tokens", totals.tokens, self.max_tokens, lambda n: f"{n:,.0f} tokens")

    async def before_request(self, view: BeforeRequest) -> HistoryReplacement | None:
        """The turn hook: a reached limit ends the turn here, before the request is sent."""
        if self._exceeded is not None:
            raise BudgetExceededError(
                f"stopped: {self._exceeded}",
                hint="the session is saved: continue it with a larger budget, or none (`vtcode exec "
                "--continue` or --resume ID; `Session.resume(id, options)` in the SDK)"
                if self.stored
                else "an --ephemeral session is not stored: run it again with a larger budget, or none",
            )
        return None

    def _check(self, what: str, used: float, limit: float, show: Callable[[float], str]) -> None:
        if used >= limit and self._exceeded is None:
            flag = "--max-budget-usd" if what == "USD" else "--max-tokens-total"
            self._exceeded = f"this run used {show(used)} of its budget of {show(limit)} ({flag})"
            self._warn_once("exceeded", f"{self._exceeded}; it stops before the next model request")
        elif used >= WARN_SHARE * limit:
            self._warn_once(
                what, f"this run used {used / limit:.0%} of its budget: {show(used)} of {show(limit)}"
            )

    def _warn_once(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self._notify(Notice(level="warning", message=message))
