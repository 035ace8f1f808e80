"""Provider-token calibration and the pacing of compactions (no thrash, no death)."""

from __future__ import annotations

from vtcode.core.compaction.pacing import Pacing, growth_gap, planned_tail, smaller_tails
from vtcode.core.tokens import MAX_RATIO, MIN_RATIO, Calibration


def test_the_ratio_starts_at_one_and_follows_what_the_provider_reports() -> None:
    calibration = Calibration()
    assert (calibration.ratio, calibration.provider(10_000), calibration.ours(18_000)) == (
        1.0,
        10_000,
        18_000,
    )
    calibration = calibration.observed(18_000, 10_000)
    assert calibration.ratio == 1.8
    assert (calibration.provider(10_000), calibration.ours(18_000)) == (18_000, 10_000)
    # One odd figure moves the running ratio only part of the way.
    moved = calibration.observed(10_000, 10_000)
    assert 1.0 < moved.ratio < 1.8
    assert moved.samples == 2


def test_the_ratio_is_clamped_and_placeholder_figures_are_not_samples() -> None:
    assert Calibration().observed(40_000, 10_000).ratio == MAX_RATIO
    assert Calibration().observed(3_000, 10_000).ratio == MIN_RATIO
    # A proxy or test server reporting 10 tokens for a 3,000-token request counted nothing we sent.
    assert Calibration().observed(10, 3_000) == Calibration()
    assert Calibration().observed(0, 3_000) == Calibration()


def test_the_tail_leaves_half_the_room_under_the_soft_threshold_to_grow_into() -> None:
    # 160k: room enough, the SPEC's 20,000 stands.
    assert planned_tail(20_000, 129_600, fixed=3_000, head=2_000) == 20_000
    # 16k budget: hard 14,400 (tail 7,200), soft 12,960; 3,000 fixed and a 2,000 head leave 7,960.
    assert planned_tail(7_200, 12_960, fixed=3_000, head=2_000) == 3_980
    assert planned_tail(7_200, None, fixed=3_000, head=2_000) == 7_200
    assert planned_tail(7_200, 2_700, fixed=3_000, head=2_000) == 1


def test_a_tail_that_would_not_gain_is_halved_down_to_the_newest_batch() -> None:
    assert smaller_tails(8_000, 1_500) == [4_000, 2_000, 1_500]
    assert smaller_tails(1_500, 1_500) == []


def test_the_next_compaction_waits_for_a_quarter_of_the_tail_target_of_growth() -> None:
    pacing = Pacing(after_tokens=10_000, gap=growth_gap(4_000))
    assert pacing.gap == 1_000
    assert not pacing.allows(10_999)
    assert pacing.allows(11_000)
