"""Reference 5.4: which replies to a request with the compaction edit count as a provider summary."""

from __future__ import annotations

import pytest

from vtcode.core.compaction.inline import (
    INLINE_MIN_ESTIMATE,
    INLINE_TRIGGER_TOKENS,
    edit_instructions,
    judge,
    worth_trying,
)


@pytest.mark.parametrize("stop", ["compaction", "pause_turn"])
def test_a_pause_with_a_summary_is_the_summary(stop: str) -> None:
    assert judge(stop, "  the summary \n").summary == "the summary"


@pytest.mark.parametrize(
    ("stop", "compaction", "reason"),
    [
        (None, None, "the compaction edit did not fire"),
        ("end_turn", None, "the compaction edit did not fire (stop reason end_turn)"),
        ("compaction", "   ", "the provider's compaction summary was empty"),
        ("compaction", None, "the compaction edit did not fire (stop reason compaction)"),
        ("end_turn", "a summary", "the reply did not pause after compacting (stop reason end_turn)"),
    ],
)
def test_anything_else_is_not_used_and_says_why(
    stop: str | None, compaction: str | None, reason: str
) -> None:
    verdict = judge(stop, compaction)
    assert verdict.summary is None
    assert verdict.reason == reason


def test_the_trigger_is_the_apis_floor_and_smaller_requests_are_not_sent() -> None:
    assert INLINE_TRIGGER_TOKENS == 50_000
    assert INLINE_MIN_ESTIMATE == 40_000
    assert not worth_trying(39_999)
    assert worth_trying(40_000)


def test_instructions_are_trimmed_and_blank_ones_dropped() -> None:
    assert edit_instructions("  keep paths\n") == "keep paths"
    assert edit_instructions(" \n ") is None
    assert edit_instructions(None) is None
