"""An oversized newest group splits at tool-batch boundaries: calls keep their results, the request stays."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tests.core.compaction.sized import calls, estimator, reply, result, user

from vtcode.core.compaction.plan import CompactionSettings, Mode, assemble, plan_compaction
from vtcode.core.compaction.split import batch_ranges, split_group
from vtcode.core.compaction.summary import SECTIONS, SUMMARY_PREFIX
from vtcode.core.compaction.validity import protocol_problems
from vtcode.core.tokens import MessageEstimator
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

SUMMARY = "\n".join(f"## {name}\nnone" for name in SECTIONS)
sizes = st.integers(min_value=0, max_value=6_000)


@st.composite
def long_turns(draw: st.DrawFn) -> list[Message]:
    """One user request and the batches of its turn: calls with all their results, in any order."""
    ids = iter(range(1_000_000))
    meta = MessageMeta(intent_id="intent-1") if draw(st.booleans()) else MessageMeta()
    group: list[Message] = [UserMessage("u" * draw(sizes), meta=meta)]
    for _ in range(draw(st.integers(0, 30))):
        if draw(st.integers(0, 4)) == 0:
            group.append(AssistantMessage(content="a" * draw(sizes)))
            continue
        call_ids = [f"c{next(ids)}" for _ in range(draw(st.integers(1, 3)))]
        group.append(AssistantMessage(content="t" * draw(st.integers(0, 50)), tool_calls=tuple(
            ToolCall(i, "run", "{" + "x" * draw(st.integers(0, 300)) + "}") for i in call_ids
        )))  # fmt: skip
        for call_id in draw(st.permutations(call_ids)):
            group.append(ToolResultMessage(call_id=call_id, name="run", content="r" * draw(sizes)))
    return group


def _calls_and_results_together(messages: list[Message]) -> bool:
    """Every call in `messages` has its result there, and every result its call."""
    called = {c.id for m in messages if isinstance(m, AssistantMessage) for c in m.tool_calls}
    answered = {m.call_id for m in messages if isinstance(m, ToolResultMessage)}
    return called == answered


@given(long_turns(), st.sampled_from([20_000, 13_500, 3_600, 500]))
def test_splitting_never_parts_a_call_from_its_result_or_drops_the_request(
    group: list[Message], target: int
) -> None:
    estimate = MessageEstimator(len)
    split = split_group(group, estimate, target, len)
    kept, summarized = list(split.kept), list(split.summarized)
    # The request is kept first, with its intent id; verbatim whenever it fits the target alone.
    first = kept[0]
    assert isinstance(first, UserMessage)
    assert first.meta == group[0].meta
    if estimate(group[0]) <= target:
        assert first == group[0]
    assert protocol_problems(kept) == []
    assert protocol_problems([group[0], *summarized]) == []
    assert _calls_and_results_together(kept)
    assert _calls_and_results_together(summarized)
    # Nothing is lost: the summarized batches and the kept ones are the group, in order.
    assert summarized == group[1 : 1 + len(summarized)]
    assert len(summarized) + len(kept) == len(group)
    if not split.previewed:
        assert kept[1:] == group[1 + len(summarized) :]
        assert estimate.total(kept) <= target


@given(long_turns())
def test_a_compacted_long_turn_is_valid_and_keeps_its_request(group: list[Message]) -> None:
    estimate = MessageEstimator(len)
    history: list[Message] = [user("earlier request", 300), reply("earlier answer", 300), *group]
    settings = CompactionSettings(capacity=0)
    plan = plan_compaction(history, estimate, settings, tail_tokens=3_600)
    compacted = assemble(plan, SUMMARY, Mode.LOCAL, estimate, settings)
    assert compacted.problems == ()
    assert protocol_problems(compacted.messages) == []
    requests = [m for m in compacted.messages if isinstance(m, UserMessage)]
    assert requests[-1].meta == group[0].meta
    if estimate(group[0]) <= 3_600:
        assert requests[-1] == group[0]


def test_a_long_turn_keeps_its_newest_whole_batches_and_summarizes_the_older_ones() -> None:
    turn: list[Message] = [user("make the tests pass", 100)]
    for n in range(40):
        turn += [calls(f"c{n}"), result(f"c{n}", f"output {n}".ljust(500, "."))]
    history: list[Message] = [user("setup", 50), reply("ok", 50), *turn]
    estimate = estimator()
    plan = plan_compaction(history, estimate, CompactionSettings(capacity=0), tail_tokens=3_000)
    # 100 + 5 x (24 + 506) = 2,750 fits; a sixth batch would not.
    assert plan.tail == (turn[0], *turn[-10:])
    assert plan.prefix == (*history[:2], turn[0], *turn[1:-10])
    compacted = assemble(plan, SUMMARY, Mode.LOCAL, estimate, CompactionSettings(capacity=0))
    assert compacted.messages[0].content.startswith(SUMMARY_PREFIX)
    assert compacted.messages[-11:] == (turn[0], *turn[-10:])
    # The request is in the tail verbatim, so the retained block does not repeat it.
    assert sum("make the tests pass" in m.content for m in compacted.messages) == 1


def test_only_a_newest_batch_too_big_for_the_tail_is_previewed() -> None:
    turn: list[Message] = [user("run the build", 100), calls("c1"), result("c1", "small")]
    turn += [calls("c2"), result("c2", "x" * 9_000)]
    split = split_group(turn, estimator(), 3_000, len)
    assert split.previewed
    assert split.summarized == (turn[1], turn[2])
    assert split.kept[0] == turn[0]
    assert [type(m) for m in split.kept] == [UserMessage, AssistantMessage, ToolResultMessage]
    assert estimator().total(split.kept) <= 3_000


def test_batches_are_a_call_with_its_results_or_one_other_message() -> None:
    turn = [
        user("u"),
        calls("c1", "c2"),
        result("c2"),
        result("c1"),
        reply("note"),
        calls("c3"),
        result("c3"),
    ]
    assert batch_ranges(turn) == [range(1, 4), range(4, 5), range(5, 7)]
    assert batch_ranges([user("u"), result("legacy")]) == [range(1, 2)]
