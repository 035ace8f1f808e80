"""Hard and soft thresholds: every worked example of reference 2.4, the small-budget tail, the budget."""

from __future__ import annotations

import pytest

from vtcode.core.compaction.thresholds import (
    Thresholds,
    history_budget,
    round_half_away,
    server_compaction_hint,
    tail_target,
    thresholds,
)

# (capacity, session budget, explicit, hard, soft)
WORKED_EXAMPLES = [
    (128_000, 160_000, None, 115_200, 103_680),
    (200_000, 160_000, None, 144_000, 129_600),
    (1_000_000, 160_000, None, 144_000, 129_600),
    (32_768, 160_000, None, 29_491, 26_542),
    (500_000, 160_000, None, 144_000, 129_600),
    (100_000, 160_000, None, 90_000, 81_000),
    (200_000, 0, None, 180_000, 162_000),
    (1_000_000, 0, None, 900_000, 810_000),
    (0, 160_000, None, 144_000, 129_600),
    (0, 0, None, None, None),
    (128_000, 160_000, 120_000, 120_000, 108_000),
    (128_000, 160_000, 200_000, 128_000, 115_200),
    (500_000, 100_000, 200_000, 200_000, 180_000),
    (150_000, 100_000, 200_000, 150_000, 135_000),
    (200_000, 160_000, 0, 144_000, 129_600),
    (0, 160_000, 120_000, 120_000, 108_000),
    (200_000, 0, 300_000, 200_000, 180_000),
    (25, 0, None, 23, 21),
]


@pytest.mark.parametrize(("capacity", "budget", "explicit", "hard", "soft"), WORKED_EXAMPLES)
def test_worked_examples(capacity: int, budget: int, explicit: int | None, hard: int, soft: int) -> None:
    assert thresholds(capacity, budget, explicit) == Thresholds(hard=hard, soft=soft)


def test_halves_round_away_from_zero_unlike_python_round() -> None:
    assert round(22.5) == 22
    assert (round_half_away(22.5), round_half_away(-22.5), round_half_away(22.4)) == (23, -23, 22)


def test_server_hint_carries_the_hard_threshold_or_nothing() -> None:
    assert server_compaction_hint(thresholds(2_000, 160_000, 512).hard) == [
        {"type": "compaction", "compact_threshold": 512}
    ]
    assert server_compaction_hint(thresholds(0, 0).hard) is None


def test_small_budgets_halve_the_tail_so_a_compaction_always_gains() -> None:
    assert tail_target(thresholds(8_000).hard) == 3_600
    assert tail_target(thresholds(200_000, 30_000).hard) == 13_500
    assert tail_target(thresholds(200_000, 160_000).hard) == 20_000
    assert tail_target(None) == 20_000


def test_history_budget_reserves_an_eighth_and_512() -> None:
    assert [history_budget(c) for c in (128_000, 200_000, 32_768, 4_096, 1_000)] == [
        111_488,
        174_488,
        28_160,
        3_072,
        363,
    ]
    assert history_budget(0) is None
