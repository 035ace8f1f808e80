"""What one turn's model calls used and cost, told in the event that ends it.

The session's ledger records every call (main, subagents, compaction); a turn marks it when it starts
and reads the difference when it ends, so a failed or interrupted turn reports the tokens it spent too.
"""

from __future__ import annotations

import msgspec

from vtcode.protocol.events import TurnCompleted, TurnFailed
from vtcode.protocol.messages import Usage
from vtcode.runtime.usage_tracking import UsageTracking


class TurnSpending:
    """The ledger's mark at a turn's start, and the ending events with the turn's usage and cost."""

    def __init__(self, tracking: UsageTracking | None) -> None:
        self._ledger = tracking.ledger if tracking is not None else None
        self._mark = self._ledger.mark() if self._ledger is not None else None

    def completed(self, usage: Usage, pending_intents: int) -> TurnCompleted:
        """`turn.completed` with the turn's usage (as the loop counted it) and the cost of its calls."""
        cost = None
        if self._ledger is not None and self._mark is not None:
            cost = self._ledger.since(self._mark).cost_usd
        return TurnCompleted(usage=usage, pending_intents=pending_intents, cost_usd=cost)

    def failed(self, event: TurnFailed) -> TurnFailed:
        """`event` with what the turn's calls used and cost before it failed or was interrupted."""
        if self._ledger is None or self._mark is None:
            return event
        spent = self._ledger.since(self._mark)
        return msgspec.structs.replace(event, usage=spent.usage, cost_usd=spent.cost_usd)
