"""What a session's model calls used and cost: one row per source and model, and the totals."""

from __future__ import annotations

import msgspec

from vtcode.protocol.messages import Usage

USAGE_SCHEMA_VERSION = 1


class UsageRow(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The calls of one source to one model: tokens, API time, cost (None: a price is unknown)."""

    source: str
    model: str
    provider: str = ""
    requests: int = 0
    usage: Usage = Usage()
    api_ms: int = 0
    cost_usd: float | None = 0.0


class UsageReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A session's usage: one row per (source, model), the totals, the date of the price table.

    `cost_usd` is None when any row's cost is unknown (`unpriced` names those models); `known_cost_usd`
    is the sum of the rows whose price is known.
    """

    schema_version: int = USAGE_SCHEMA_VERSION
    session_id: str = ""
    rows: tuple[UsageRow, ...] = ()
    requests: int = 0
    usage: Usage = Usage()
    api_ms: int = 0
    cost_usd: float | None = 0.0
    known_cost_usd: float = 0.0
    unpriced: tuple[str, ...] = ()
    prices_taken: str = ""
