"""Protocol groups and the continuity tail (reference 14.3, T = 20,000)."""

from __future__ import annotations

from collections.abc import Sequence

from tests.core.compaction.sized import calls, estimator, reply, result, user

from vtcode.core.compaction.groups import TailSelection, bounded_group, select_tail, valid_prefix_len
from vtcode.core.compaction.validity import protocol_problems
from vtcode.protocol.messages import AssistantMessage, Message, MessageMeta, ToolCall, ToolResultMessage

T = 20_000


def _tail(history: Sequence[Message]) -> list[Message]:
    selection = select_tail(history, estimator(), T)
    assert selection is not None
    return list(history[selection.start : selection.end])


def test_whole_groups_are_taken_newest_first_while_they_fit() -> None:
    history = [
        user("U1", 4_000), reply("A1", 4_000),
        user("U2", 3_000), reply("A2", 4_000),
        user("U3", 3_000), reply("A3", 3_000),
        user("U4", 2_000), reply("A4", 3_000),
    ]  # fmt: skip
    assert select_tail(history, estimator(), T) == TailSelection(
        start=2, end=8, tokens=18_000, oversized=False
    )


def test_exactly_the_target_still_fits_and_one_more_token_does_not() -> None:
    exact = [user("U1", 5_000), reply("A1", 5_000), user("U2", 5_000), reply("A2", 5_000)]
    assert _tail(exact) == exact
    over = [user("U1", 5_000), reply("A1", 5_001), user("U2", 5_000), reply("A2", 5_000)]
    assert _tail(over) == over[2:]


def test_an_oversized_newest_group_is_bounded_message_by_message() -> None:
    history = [user("U1", 1_000), reply("A1", 1_000), user("U2", 15_000), reply("A2", 10_000)]
    selection = select_tail(history, estimator(), T)
    assert selection == TailSelection(start=2, end=4, tokens=25_000, oversized=True)
    bounded = bounded_group(history[2:], estimator(), T, len)
    assert [type(m) for m in bounded] == [type(m) for m in history[2:]]
    assert all(estimator()(m) <= 10_000 for m in bounded)
    assert "tokens omitted by compaction" in bounded[0].content


def test_an_incomplete_trailing_call_is_dropped_and_its_user_anchor_kept() -> None:
    history = [user("U1"), calls("c1"), result("c1"), user("U2"), calls("c2")]
    selection = select_tail(history, estimator(), T)
    assert selection is not None
    assert (selection.start, selection.end) == (0, 4)
    assert _tail([user("run both"), calls("c1", "c2"), result("c1")]) == [user("run both")]


def test_results_may_come_in_any_order() -> None:
    history = [user("U"), calls("c1", "c2"), result("c2"), result("c1")]
    assert _tail(history) == history


def test_an_incomplete_older_group_stops_the_walk() -> None:
    history = [user("U1"), calls("c1"), user("U2"), reply("A2")]
    assert _tail(history) == history[2:]


def test_no_user_message_means_no_tail() -> None:
    assert select_tail([reply("setup"), reply("more")], estimator(), T) is None


def test_legacy_orphan_results_and_bad_call_ids() -> None:
    orphan = [user("U"), result("c9", "legacy")]
    assert _tail(orphan) == orphan
    duplicate = [user("U"), calls("c1", "c1"), result("c1"), result("c1")]
    assert _tail(duplicate) == [user("U")]
    assert _tail([user("U"), calls(""), result("")]) == [user("U")]
    interleaved = [user("U"), calls("c1"), reply("interleaved text"), result("c1")]
    assert _tail(interleaved) == [user("U")]
    assert valid_prefix_len([reply("not a user")]) == 0


def test_huge_call_arguments_become_empty_and_the_correlation_survives() -> None:
    big = AssistantMessage(tool_calls=(ToolCall("call-large", "run", "x" * 300_000),))
    history: list[Message] = [user("run the command"), big, result("call-large", "completed")]
    estimate = estimator()
    selection = select_tail(history, estimate, T)
    assert selection is not None
    assert selection.oversized
    bounded = bounded_group(history, estimate, T, len)
    assert estimate.total(bounded) <= T
    shrunk = bounded[1]
    assert isinstance(shrunk, AssistantMessage)
    assert shrunk.tool_calls == (ToolCall("call-large", "run", "{}"),)
    assert isinstance(bounded[2], ToolResultMessage)
    assert bounded[2].call_id == "call-large"
    assert protocol_problems(bounded) == []


def test_a_bounded_message_keeps_its_intent_id() -> None:
    tagged = user("steer", 30_000, intent="i-1")
    bounded = bounded_group([tagged], estimator(), T, len)
    assert bounded[0].meta == MessageMeta(intent_id="i-1")
    assert estimator()(bounded[0]) <= T
