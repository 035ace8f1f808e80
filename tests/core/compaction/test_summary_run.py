"""The summary conversation: overflow answers re-chunk, failures end in the local summary, words survive."""

from __future__ import annotations

from vtcode.core.compaction.plan import CompactionSettings, Mode, assemble, plan_compaction
from vtcode.core.compaction.retention import RETAINED_HEADER, retain_user_messages
from vtcode.core.compaction.summary import SECTIONS
from vtcode.core.compaction.summary_run import SummaryRun
from vtcode.core.tokens import MessageEstimator
from vtcode.protocol.errors import ProviderErrorKind
from vtcode.protocol.messages import AssistantMessage, Message, SystemMessage, UserMessage
from vtcode.tokens.encoding import text_counter

SUMMARY = "\n".join(f"## {name}\nnone" for name in SECTIONS)


def _long_history(turns: int) -> list[Message]:
    history: list[Message] = []
    for turn in range(turns):
        history += [UserMessage(f"step {turn}"), AssistantMessage(content="lorem ipsum " * 400)]
    return history


def test_an_overflowing_summary_request_is_retried_in_smaller_chunks() -> None:
    count = text_counter()
    estimate = MessageEstimator(count)
    plan = plan_compaction(_long_history(60), estimate, CompactionSettings(capacity=0))
    run = SummaryRun(plan, count)
    assert run.chunk_count == 1
    first = run.request
    assert first is not None
    run.failed("context length exceeded", ProviderErrorKind.CONTEXT_OVERFLOW)
    sizes = []
    while run.request is not None:
        sizes.append(estimate.total(run.request))
        run.answered(SUMMARY)
    assert len(sizes) > 1
    assert max(sizes) < estimate.total(first)
    assert (run.mode, run.summary) == (Mode.LOCAL, SUMMARY)
    assert run.notes[0].startswith("summary request overflowed")


def test_overflow_after_overflow_ends_in_the_local_summary() -> None:
    count = text_counter()
    plan = plan_compaction(_long_history(60), MessageEstimator(count), CompactionSettings(capacity=0))
    run = SummaryRun(plan, count)
    while run.request is not None:
        run.failed("context length exceeded", ProviderErrorKind.CONTEXT_OVERFLOW)
    assert run.mode is Mode.FALLBACK
    assert "step 0" in run.summary


def test_any_other_failure_falls_back_at_once() -> None:
    count = text_counter()
    plan = plan_compaction(_long_history(60), MessageEstimator(count), CompactionSettings(capacity=0))
    run = SummaryRun(plan, count)
    run.failed("HTTP status 500", ProviderErrorKind.SERVER)
    assert run.request is None
    assert run.mode is Mode.FALLBACK
    assert run.notes == ["the summary request failed: HTTP status 500; using the deterministic local summary"]


def test_over_budget_the_oldest_user_messages_are_shortened_first_with_a_marker() -> None:
    count = text_counter()
    words = [UserMessage(f"request {n}: " + "detail " * 300) for n in range(6)]
    retained = retain_user_messages(words, MessageEstimator(count), budget=1_500)
    assert retained.block is not None
    assert count(retained.block.content) <= 1_500
    text = retained.block.content
    assert text.startswith(RETAINED_HEADER)
    assert words[-1].content in text
    assert words[0].content not in text
    assert "request 0:" in text
    assert "tokens omitted by compaction" in text
    assert retained.left_out == ()


def test_the_environment_context_item_is_not_retained_as_the_users_words() -> None:
    estimate = MessageEstimator(text_counter())
    context = UserMessage("<environment_context>\ncwd: /repo\n</environment_context>")
    retained = retain_user_messages([context, UserMessage("fix the parser")], estimate)
    assert retained.block is not None
    assert "cwd: /repo" not in retained.block.content
    assert retained.kept == (UserMessage("fix the parser"),)


def test_planted_corrections_survive_five_compactions_verbatim() -> None:
    count = text_counter()
    estimate = MessageEstimator(count)
    settings = CompactionSettings(capacity=0, session_budget=30_000)
    corrections = [
        "use tabs, not spaces",
        "never touch migrations/",
        "run pytest with -x",
        "the API is v2, not v1",
        "keep functions under 40 lines",
        "no new dependencies",
        "log with the logging module, not print",
        "dates are UTC",
        "name tests after behaviour",
        "commit after each step",
    ]
    hard = settings.thresholds.hard
    assert hard is not None
    history: list[Message] = []
    compactions = 0
    for turn in range(120):
        text = corrections[turn // 12] if turn % 12 == 5 else f"turn {turn}: continue the refactor"
        history += [UserMessage(text), AssistantMessage(content="working " * 1_200)]
        if estimate.total(history) > hard:
            plan = plan_compaction(history, estimate, settings)
            history = list(assemble(plan, SUMMARY, Mode.LOCAL, estimate, settings).messages)
            compactions += 1
    assert compactions >= 5
    final = "\n".join(m.content for m in history if isinstance(m, UserMessage | SystemMessage))
    assert all(correction in final for correction in corrections)
