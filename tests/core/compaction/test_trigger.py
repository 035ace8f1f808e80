"""Pressure bookkeeping, the soft/hard decision and the failure circuit breaker (reference 14.1 E-7, 14.2)."""

from __future__ import annotations

import pytest

from vtcode.core.compaction.thresholds import thresholds
from vtcode.core.compaction.trigger import (
    Action,
    Decision,
    Suppression,
    classify_failure,
    decide,
    escalate,
)
from vtcode.core.context_pressure import ContextPressure as Pressure
from vtcode.protocol.errors import ProviderErrorKind
from vtcode.protocol.messages import Usage

LIMITS = thresholds(200_000, 160_000)  # hard 144,000, soft 129,600


def test_pressure_is_the_reported_prompt_raised_to_the_estimate() -> None:
    pressure = Pressure().with_estimate(160_000).with_estimate(12_000)
    assert pressure.tokens == 160_000
    pressure = pressure.with_usage(3_000, completion_tokens=300, total_tokens=3_300)
    assert pressure.tokens == 3_000
    pressure = pressure.with_usage(0, completion_tokens=800, total_tokens=3_300)
    assert pressure.tokens == 2_500
    assert pressure.with_usage(0) == pressure
    assert pressure.with_reported(Usage(input_tokens=7_000, cached_input_tokens=6_000)).tokens == 7_000
    assert pressure.marked_pending().after_compaction() == Pressure()


def _decide(pressure: Pressure, *, history_len: int = 20, enabled: bool = True) -> Decision:
    return decide(pressure, LIMITS, enabled=enabled, suppression=Suppression.NONE, history_len=history_len)


def test_soft_marks_pending_and_the_next_boundary_compacts() -> None:
    assert _decide(Pressure(129_599)) == Decision(Action.NOTHING, Pressure(129_599), "")
    marked = _decide(Pressure(129_600))
    assert marked == Decision(Action.NOTHING, Pressure(129_600, pending=True), "")
    later = _decide(Pressure(10, pending=True))
    assert (later.action, later.trigger) == (Action.COMPACT, "soft")


def test_hard_compacts_before_this_request() -> None:
    decision = _decide(Pressure(144_000))
    assert (decision.action, decision.trigger) == (Action.COMPACT, "hard")


def test_short_histories_compact_only_when_forced() -> None:
    assert _decide(Pressure(200_000), history_len=10).action is Action.NOTHING
    assert _decide(Pressure(200_000, pending=True), history_len=10).action is Action.COMPACT
    assert _decide(Pressure(200_000), history_len=11).action is Action.COMPACT


def test_disabled_or_suppressed_never_compacts() -> None:
    assert _decide(Pressure(1_000_000), enabled=False).action is Action.NOTHING
    suppressed = decide(
        Pressure(1_000_000), LIMITS, enabled=True, suppression=Suppression.STICKY, history_len=20
    )
    assert suppressed.action is Action.NOTHING
    unknown = decide(
        Pressure(1_000_000), thresholds(0, 0), enabled=True, suppression=Suppression.NONE, history_len=20
    )
    assert unknown.action is Action.NOTHING


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Provider: context length exceeded", Suppression.STICKY),
        ("HTTP status 401", Suppression.UNTIL_SUCCESS),
        ("invalid_request_error: bad field", Suppression.STICKY),
        ("Usage limit reached", Suppression.UNTIL_SUCCESS),
        ("connection reset", Suppression.TURN),
    ],
)
def test_failures_are_classified_by_their_text(text: str, state: Suppression) -> None:
    assert classify_failure(text) is state


def test_our_error_kinds_classify_before_the_text() -> None:
    assert classify_failure("boom", ProviderErrorKind.CONTEXT_OVERFLOW) is Suppression.STICKY
    assert classify_failure("boom", ProviderErrorKind.QUOTA) is Suppression.UNTIL_SUCCESS
    assert classify_failure("boom", ProviderErrorKind.NETWORK) is Suppression.TURN


def test_a_state_never_downgrades() -> None:
    assert escalate(Suppression.STICKY, classify_failure("connection reset")) is Suppression.STICKY
    assert escalate(Suppression.NONE, Suppression.TURN) is Suppression.TURN
