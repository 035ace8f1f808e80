"""The compacted history: summary, retained user words, verbatim tail; native results normalized."""

from __future__ import annotations

from collections.abc import Callable

from tests.core.compaction.sized import calls, estimator, reply, result, user

from vtcode.core.compaction.plan import (
    CompactionResult,
    CompactionSettings,
    Mode,
    assemble,
    normalize_native,
    plan_compaction,
)
from vtcode.core.compaction.retention import RETAINED_HEADER
from vtcode.core.compaction.summary import SECTIONS, SUMMARY_PREFIX
from vtcode.core.compaction.summary_run import SummaryRun
from vtcode.core.compaction.validity import intent_ids, protocol_problems
from vtcode.core.tokens import MessageEstimator
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    SystemMessage,
    ToolResultMessage,
    UserMessage,
)
from vtcode.tokens.encoding import text_counter

WIDE = CompactionSettings(capacity=0)
GOOD_SUMMARY = "\n".join(f"## {name}\nnone" for name in SECTIONS)


def _compact(
    history: list[Message],
    model: Callable[[list[Message]], str],
    settings: CompactionSettings = WIDE,
    estimate: MessageEstimator | None = None,
) -> CompactionResult:
    estimate = estimate or estimator()
    plan = plan_compaction(history, estimate, settings)
    run = SummaryRun(plan, estimate.count)
    while run.request is not None:
        run.answered(model(run.request))
    return assemble(plan, run.summary, run.mode, estimate, settings)


def test_messages_before_the_first_user_are_summarized_and_the_rest_kept() -> None:
    history: list[Message] = [
        AssistantMessage(content="setup"),
        UserMessage("first"),
        AssistantMessage(content="working"),
        UserMessage("second"),
    ]
    compacted = _compact(history, lambda request: GOOD_SUMMARY)
    assert compacted.messages == (
        SystemMessage(SUMMARY_PREFIX + GOOD_SUMMARY),
        UserMessage("first"),
        AssistantMessage(content="working"),
        UserMessage("second"),
    )
    assert compacted.mode is Mode.LOCAL
    assert compacted.problems == ()


def test_a_history_that_is_all_tail_is_left_unchanged() -> None:
    history: list[Message] = [UserMessage("only"), AssistantMessage(content="this")]
    compacted = _compact(history, lambda request: GOOD_SUMMARY)
    assert compacted.messages == tuple(history)
    assert not compacted.changed


def test_no_user_message_summarizes_everything() -> None:
    compacted = _compact([reply("setup"), reply("more")], lambda request: GOOD_SUMMARY)
    assert compacted.messages == (SystemMessage(SUMMARY_PREFIX + GOOD_SUMMARY),)


def test_the_user_words_of_the_prefix_stay_verbatim_in_the_retained_block() -> None:
    history: list[Message] = [
        user("use tabs, never spaces", 30),
        reply("ok", 15_000),
        user("never touch migrations/", 30),
        reply("noted", 15_000),
        user("now fix the bug", 30),
        reply("fixed", 100),
    ]
    compacted = _compact(history, lambda request: GOOD_SUMMARY)
    block = compacted.messages[1]
    assert isinstance(block, SystemMessage)
    assert block.content.startswith(RETAINED_HEADER)
    assert history[0].content in block.content
    assert compacted.messages[2:] == tuple(history[2:])


def test_the_summary_request_has_no_tools_and_ends_with_the_user_asking() -> None:
    seen: list[list[Message]] = []

    def model(request: list[Message]) -> str:
        seen.append(request)
        return GOOD_SUMMARY

    history: list[Message] = [user("task A", 30), reply("done A", 25_000), user("task B", 30)]
    _compact(history, model)
    [request] = seen
    assert isinstance(request[-1], UserMessage)
    assert "## Constraints and user corrections" in request[-1].content
    assert "task A" in request[-1].content


def test_an_empty_summary_is_asked_again_then_replaced_by_the_local_summary() -> None:
    answers = iter(["", "## Goal\nonly a goal"])
    history: list[Message] = [
        user("write the parser", 30),
        calls("c1"),
        ToolResultMessage(call_id="c1", name="run", content="error: no such file", is_error=True),
        reply("x", 25_000),
        user("continue", 30),
    ]
    compacted = _compact(history, lambda request: next(answers))
    assert compacted.mode is Mode.FALLBACK
    assert "(Deterministic summary" in compacted.summary
    assert "write the parser" in compacted.summary
    assert "- run: error: no such file" in compacted.summary
    assert compacted.problems == ()


def test_a_retry_with_every_heading_is_accepted() -> None:
    answers = iter(["## Goal\nhalf", GOOD_SUMMARY])
    history: list[Message] = [user("a", 30), reply("b", 25_000), user("c", 30)]
    compacted = _compact(history, lambda request: next(answers))
    assert (compacted.mode, compacted.summary) == (Mode.LOCAL, GOOD_SUMMARY)


def test_a_large_prefix_is_summarized_in_chunks_each_within_the_request_budget() -> None:
    count = text_counter()
    estimate = MessageEstimator(count)
    settings = CompactionSettings(capacity=8_000)
    history: list[Message] = []
    for turn in range(40):
        history += [
            UserMessage(f"step {turn}: refactor module {turn}"),
            AssistantMessage(content="lorem " * 600),
        ]
    sizes: list[int] = []

    def model(request: list[Message]) -> str:
        sizes.append(estimate.total(request))
        return GOOD_SUMMARY

    plan = plan_compaction(history, estimate, settings)
    run = SummaryRun(plan, count)
    while run.request is not None:
        run.answered(model(run.request))
    assert len(sizes) > 1
    assert max(sizes) <= plan.budget.request_tokens <= 8_000
    assert run.mode is Mode.LOCAL


def test_bounded_output_fits_the_history_budget_of_a_small_window() -> None:
    count = text_counter()
    estimate = MessageEstimator(count)
    settings = CompactionSettings(capacity=32_768)
    history: list[Message] = []
    for _ in range(24):
        history += [UserMessage("context " * 1_200), AssistantMessage(content="ok")]
    compacted = _compact(history, lambda request: GOOD_SUMMARY * 40, settings, estimate)
    assert compacted.tokens_after <= 28_160
    assert estimate(compacted.messages[0]) <= 4_096
    assert compacted.problems == ()


def test_native_summary_alone_gets_the_local_tail() -> None:
    source: list[Message] = [UserMessage("latest request"), AssistantMessage(content="finished")]
    estimate = estimator()
    plan = plan_compaction(source, estimate, WIDE)
    native = normalize_native([SystemMessage("provider summary")], plan, estimate, WIDE)
    assert native.messages == (SystemMessage("provider summary"), *source)
    pending = normalize_native([SystemMessage("summary"), calls("c1", text="pending")], plan, estimate, WIDE)
    assert pending.messages == (SystemMessage("summary"), *source)


def test_native_output_with_its_own_tail_drops_the_pending_calls() -> None:
    output: list[Message] = [
        SystemMessage("S"),
        UserMessage("older request"),
        AssistantMessage(content="older result"),
        UserMessage("latest request"),
        calls("c1", "c2"),
        result("c1"),
    ]
    estimate = estimator()
    plan = plan_compaction([UserMessage("latest request")], estimate, WIDE)
    native = normalize_native(output, plan, estimate, WIDE)
    assert native.messages == tuple(output[:4])
    assert native.mode is Mode.NATIVE
    assert native.problems == ()


def test_native_normalization_keeps_duplicate_tagged_intents_apart() -> None:
    source: list[Message] = [
        UserMessage("same follow-up", meta=MessageMeta(intent_id="intent-1")),
        UserMessage("same follow-up", meta=MessageMeta(intent_id="intent-2")),
    ]
    estimate = estimator()
    plan = plan_compaction(source, estimate, WIDE)
    native = normalize_native([SystemMessage("S")], plan, estimate, WIDE)
    assert intent_ids(native.messages) == ["intent-1", "intent-2"]
    echoed = normalize_native(
        [SystemMessage("S"), UserMessage("same follow-up"), UserMessage("same follow-up")],
        plan,
        estimate,
        WIDE,
    )
    assert intent_ids(echoed.messages) == ["intent-1", "intent-2"]


def test_one_echo_of_two_same_text_steers_does_not_pass_for_the_tail_ones() -> None:
    # The older steer is in the prefix, the newer one in the tail; the provider echoes the text once. The
    # echo takes the older id back (ids are given in order), so the tail's own steer is missing from the
    # provider's tail: the local tail must be used, not a tail that looks complete by its text.
    same = "s" * 7_000
    source: list[Message] = [
        UserMessage(same, meta=MessageMeta(intent_id="intent-old")),
        calls("c1"),
        result("c1", "r" * 30_000),
        UserMessage(same, meta=MessageMeta(intent_id="intent-new")),
        AssistantMessage(content="done"),
    ]
    estimate = estimator()
    plan = plan_compaction(source, estimate, WIDE)
    assert intent_ids(plan.tail) == ["intent-new"]
    native = normalize_native([UserMessage(same)], plan, estimate, WIDE)
    assert "intent-new" in intent_ids(native.messages)
    assert native.problems == ()


def test_a_previous_summary_is_the_summary_so_far_never_a_transcript_entry() -> None:
    seen: list[str] = []

    def model(request: list[Message]) -> str:
        last = request[-1]
        assert isinstance(last, UserMessage)
        seen.append(last.content)
        return GOOD_SUMMARY

    history: list[Message] = [
        SystemMessage(SUMMARY_PREFIX + "old summary text"),
        user("u1", 30),
        reply("a1", 25_000),
        user("u2", 30),
    ]
    compacted = _compact(history, model)
    # Handed over as the summary so far: the new summary replaces it, no chain of quoted summaries.
    assert "<summary>\nold summary text\n</summary>" in seen[0]
    assert SUMMARY_PREFIX not in seen[0]
    assert "[system]" not in seen[0]
    assert sum(1 for m in compacted.messages if m.content.startswith(SUMMARY_PREFIX)) == 1


def test_protocol_problems_name_orphans_and_unanswered_calls() -> None:
    assert protocol_problems([user("u"), result("c9")]) == [
        "message 1: result for call 'c9' has no open call"
    ]
    assert protocol_problems([user("u"), calls("c1"), user("v")]) == ["message 1: call 'c1' has no result"]
    assert protocol_problems([user("u"), calls("c1"), result("c1")]) == []


def test_the_summary_carries_the_touched_paths_of_the_results_it_replaced() -> None:
    history: list[Message] = []
    for n in range(6):
        history += [
            user(f"step {n}", 400),
            calls(f"c{n}"),
            ToolResultMessage(
                call_id=f"c{n}",
                name="run",
                content="x" * 400,
                meta=MessageMeta(paths=(f"pkg{n}/mod.py", "shared.py")),
            ),
        ]
    settings = CompactionSettings(capacity=0, session_budget=1_000)
    compacted = _compact(history, lambda request: GOOD_SUMMARY, settings)
    assert compacted.problems == ()
    paths_before = {p for m in history for p in m.meta.paths}
    paths_after = {p for m in compacted.messages for p in m.meta.paths}
    assert paths_after == paths_before
    summary = compacted.messages[0]
    assert isinstance(summary, SystemMessage)
    assert "pkg0/mod.py" in summary.meta.paths
    assert "pkg5/mod.py" not in summary.meta.paths  # still on its own result in the tail
