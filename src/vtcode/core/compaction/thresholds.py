"""Hard and soft thresholds, the tail target and the history budget (reference section 2, SPEC 6.2-6.3)."""

from __future__ import annotations

import math

import msgspec

DEFAULT_SESSION_BUDGET = 160_000
TRIGGER_RATIO = 0.9
# Deliberately not configurable: changing it changes every compacted request's shape and cache behaviour.
CONTINUITY_TAIL_TOKENS = 20_000
# SPEC 6.3: under this hard threshold the tail is half of it, so a compaction always gains.
SMALL_BUDGET_HARD_TOKENS = 40_000


def effective_budget(capacity: int, session_budget: int) -> int:
    """The smaller of the known ceilings, 0 when neither is known (reference 2.3 step 1)."""
    if capacity > 0 and session_budget > 0:
        return min(capacity, session_budget)
    return max(capacity, session_budget, 0)


def round_half_away(value: float) -> int:
    """Round half away from zero, as Rust's `f64::round` (Python's `round` gives 22 for 22.5)."""
    return math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)


def resolve(explicit: int | None, size: int) -> int | None:
    """An explicit threshold as given, else 90 % of `size`; clamped to [1, size] (reference 2.3 step 2)."""
    if explicit is not None and explicit <= 0:
        explicit = None
    if explicit is None:
        if size <= 0:
            return None
        value = round_half_away(size * TRIGGER_RATIO)
    else:
        value = explicit
    value = max(1, value)
    return min(value, size) if size > 0 else value


class Thresholds(msgspec.Struct, frozen=True):
    """The pair every trigger decision compares the pressure with; both None when nothing is known."""

    hard: int | None
    soft: int | None

    @property
    def defined(self) -> bool:
        """Whether automatic compaction can fire at all."""
        return self.hard is not None


def thresholds(
    capacity: int, session_budget: int = DEFAULT_SESSION_BUDGET, explicit: int | None = None
) -> Thresholds:
    """Hard and soft thresholds from provider capacity, `context.max_context_tokens` and an explicit value.

    An explicit threshold is neither scaled by 0.9 nor limited by the session budget; only a known
    capacity caps it (reference 2.3 step 3).
    """
    if explicit is not None and explicit > 0:
        hard = resolve(explicit, capacity)
    else:
        hard = resolve(None, effective_budget(capacity, session_budget))
    if hard is None:
        return Thresholds(hard=None, soft=None)
    return Thresholds(hard=hard, soft=max(1, hard - hard // 10))


def tail_target(hard: int | None) -> int:
    """Tokens of verbatim continuity tail: 20,000, or half the hard threshold when that is under 40,000."""
    if hard is not None and hard < SMALL_BUDGET_HARD_TOKENS:
        return max(1, hard // 2)
    return CONTINUITY_TAIL_TOKENS


def history_budget(capacity: int) -> int | None:
    """What a compacted history may hold: capacity less an eighth and 512 for the answer (reference 6.6)."""
    if capacity <= 0:
        return None
    return max(1, capacity - capacity // 8 - 512)


def server_compaction_hint(hard: int | None) -> list[dict[str, object]] | None:
    """The Responses `context_management` value for a hard threshold; None when there is no threshold."""
    if hard is None:
        return None
    return [{"type": "compaction", "compact_threshold": hard}]
