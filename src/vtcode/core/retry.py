"""Retry timing: when to retry a provider request and how long to wait (pure)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import msgspec


class RetryPolicy(msgspec.Struct, frozen=True):
    """Bounded exponential backoff with jitter."""

    max_retries: int = 4
    base_delay: float = 0.5
    max_delay: float = 30.0
    # Total time budget for all waits of one request; a server asking for longer is not waited for.
    max_total: float = 120.0


def parse_retry_after(headers: Mapping[str, str], now: float) -> float | None:
    """Seconds the server asked us to wait (`retry-after-ms`, then `retry-after` seconds or HTTP date)."""
    lowered = {k.lower(): v for k, v in headers.items()}
    ms = lowered.get("retry-after-ms")
    if ms is not None:
        try:
            value = float(ms) / 1000.0
        except ValueError:
            value = math.nan
        if math.isfinite(value) and value >= 0:
            return value
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        # Only an HTTP-date needs the email package (~2 ms to import on the way to the first request).
        import email.utils

        try:
            when = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - now)
    return value if math.isfinite(value) and value >= 0 else None


def backoff_delay(policy: RetryPolicy, attempt: int, retry_after: float | None, jitter: float) -> float:
    """Delay before retry number `attempt` (1-based); `jitter` in [0, 1) comes from the caller's RNG."""
    if retry_after is not None:
        return retry_after
    exponential: float = min(policy.max_delay, policy.base_delay * 2.0 ** (attempt - 1))
    # Full jitter between half and all of the exponential step keeps retries apart without starving.
    return exponential * (0.5 + 0.5 * jitter)


def may_retry(policy: RetryPolicy, attempt: int, delay: float, waited: float) -> bool:
    """Whether retry number `attempt` fits the policy's count and total time budget."""
    return attempt <= policy.max_retries and waited + delay <= policy.max_total
