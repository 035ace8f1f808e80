"""Properties of compaction over generated histories: group atomicity, tail bounds, validity, intent ids."""

from __future__ import annotations

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from vtcode.core.compaction.groups import group_starts, select_tail
from vtcode.core.compaction.plan import CompactionSettings, Mode, assemble, normalize_native, plan_compaction
from vtcode.core.compaction.summary import SECTIONS
from vtcode.core.compaction.thresholds import history_budget
from vtcode.core.compaction.validity import intent_ids, protocol_problems
from vtcode.core.tokens import MessageEstimator
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

SUMMARY = "\n".join(f"## {name}\nnone" for name in SECTIONS)
sizes = st.integers(min_value=0, max_value=9_000)


@st.composite
def histories(draw: st.DrawFn) -> list[Message]:
    """A valid history (every call answered) that may end with an incomplete call batch."""
    ids = iter(range(1_000_000))
    messages: list[Message] = []
    for _ in range(draw(st.integers(0, 2))):
        leading: list[Message] = [SystemMessage("note"), AssistantMessage(content="setup")]
        messages.append(draw(st.sampled_from(leading)))
    for _ in range(draw(st.integers(0, 12))):
        tagged = draw(st.booleans())
        meta = MessageMeta(intent_id=f"intent-{next(ids)}") if tagged else MessageMeta()
        messages.append(UserMessage("u" * draw(sizes), meta=meta))
        for _ in range(draw(st.integers(0, 3))):
            if draw(st.booleans()):
                messages.append(AssistantMessage(content="a" * draw(sizes)))
                continue
            call_ids = [f"c{next(ids)}" for _ in range(draw(st.integers(1, 3)))]
            calls = tuple(ToolCall(i, "run", "{}") for i in call_ids)
            messages.append(AssistantMessage(tool_calls=calls))
            for call_id in draw(st.permutations(call_ids)):
                paths = (f"src/{call_id}.py",) if draw(st.booleans()) else ()
                messages.append(
                    ToolResultMessage(
                        call_id=call_id, name="run", content="r" * draw(sizes), meta=MessageMeta(paths=paths)
                    )
                )
    trailing_call: bool = draw(st.booleans())
    if messages and trailing_call:
        call_ids = [f"c{next(ids)}" for _ in range(draw(st.integers(1, 3)))]
        messages.append(AssistantMessage(tool_calls=tuple(ToolCall(i, "run", "{}") for i in call_ids)))
        for call_id in call_ids[: draw(st.integers(0, len(call_ids) - 1))]:
            messages.append(ToolResultMessage(call_id=call_id, name="run", content="partial"))
    return messages


def _complete_part(history: list[Message]) -> list[Message]:
    """The history without an incomplete trailing call batch."""
    end = len(history)
    for index in range(len(history) - 1, -1, -1):
        message = history[index]
        if isinstance(message, AssistantMessage) and message.tool_calls:
            answered = {m.call_id for m in history[index + 1 :] if isinstance(m, ToolResultMessage)}
            if not {call.id for call in message.tool_calls} <= answered:
                end = index
            break
    return history[:end]


@given(histories(), st.sampled_from([20_000, 13_500, 3_600]))
def test_the_tail_is_a_suffix_of_whole_groups_within_the_target(history: list[Message], target: int) -> None:
    estimate = MessageEstimator(len)
    selection = select_tail(history, estimate, target)
    if not any(isinstance(m, UserMessage) for m in history):
        assert selection is None
        return
    assert selection is not None
    complete = _complete_part(history)
    assert selection.end == len(complete)
    assert selection.start in group_starts(history)
    tail = history[selection.start : selection.end]
    assert protocol_problems(tail) == []
    assert selection.tokens == estimate.total(tail)
    if selection.oversized:
        assert group_starts(history)[-1] == selection.start
        assert selection.tokens > target
    else:
        assert selection.tokens <= target


@given(histories(), st.sampled_from([0, 8_000, 32_768, 200_000]))
def test_the_compacted_history_is_valid_and_keeps_the_tail_its_intents_and_touched_paths(
    history: list[Message], capacity: int
) -> None:
    estimate = MessageEstimator(len)
    settings = CompactionSettings(capacity=capacity)
    plan = plan_compaction(history, estimate, settings)
    compacted = assemble(plan, SUMMARY, Mode.LOCAL, estimate, settings)
    assert protocol_problems(compacted.messages) == []
    assert compacted.problems == ()
    tail_intents = intent_ids(plan.tail)
    kept = intent_ids(compacted.messages)
    assert all(intent in kept for intent in tail_intents)
    # Instruction scope never shrinks: every touched path stays recorded somewhere.
    assert {p for m in history for p in m.meta.paths} <= {p for m in compacted.messages for p in m.meta.paths}
    budget = history_budget(capacity)
    if budget is not None:
        assert compacted.tokens_after <= budget
    if capacity == 0 and plan.selection is not None and not plan.selection.oversized:
        assert compacted.messages[len(compacted.messages) - len(plan.tail) :] == plan.tail
        assert plan.tail == tuple(history[plan.selection.start : plan.selection.end])


@given(histories(), histories())
def test_any_native_output_normalizes_to_a_valid_history(
    source: list[Message], output: list[Message]
) -> None:
    estimate = MessageEstimator(len)
    settings = CompactionSettings(capacity=0)
    plan = plan_compaction(source, estimate, settings)
    # What a provider returns never carries our metadata.
    wire = [msgspec.structs.replace(message, meta=MessageMeta()) for message in output]
    native = normalize_native(wire, plan, estimate, settings)
    assert protocol_problems(native.messages) == []
    assert all(intent in intent_ids(native.messages) for intent in intent_ids(plan.tail))
