"""Quiet time that a dialog counts towards arming: keys and stalls of the app start it again."""

from __future__ import annotations

import pytest

from vtcode.tui.quiet_clock import STALL_SECONDS, TICK_SECONDS, QuietClock


def test_regular_ticks_count_as_quiet_and_a_key_starts_it_again() -> None:
    clock = QuietClock(10.0)
    assert clock.tick(10.0 + TICK_SECONDS) == pytest.approx(TICK_SECONDS)
    assert clock.tick(10.0 + 2 * TICK_SECONDS) == pytest.approx(2 * TICK_SECONDS)
    clock.key(10.25)
    assert clock.tick(10.3) == pytest.approx(0.05)


def test_a_late_tick_found_a_stall_and_the_stall_does_not_count_as_quiet() -> None:
    clock = QuietClock(0.0)
    clock.tick(0.1)
    # The app did not run between 0.1 and the late tick: keys typed meanwhile may still be unread.
    resumed = 0.1 + STALL_SECONDS + 1.5
    assert clock.tick(resumed) == 0.0
    assert clock.tick(resumed + TICK_SECONDS) == pytest.approx(TICK_SECONDS)
