"""The plan's pure rules: one step in progress, dropped unfinished steps, the text after a compaction."""

from __future__ import annotations

from vtcode.core.plan import (
    all_done,
    current_step,
    dropped_steps,
    normalized,
    problems,
    progress_line,
    render,
    update_result,
)
from vtcode.protocol.plan import Plan, PlanStep


def _plan(*steps: tuple[str, str], explanation: str = "") -> Plan:
    return Plan(steps=tuple(PlanStep(text, status) for text, status in steps), explanation=explanation)  # type: ignore[arg-type]


def test_two_steps_in_progress_is_the_one_problem_found() -> None:
    plan = _plan(("a", "in_progress"), ("b", "in_progress"), ("c", "pending"))
    assert problems(plan) == [
        "2 steps are in_progress ('a'; 'b'); at most one step can be in_progress: "
        "mark the others pending or completed"
    ]
    assert problems(_plan(("a", "in_progress"), ("b", "pending"))) == []


def test_empty_and_overlong_steps_are_named_by_number() -> None:
    plan = normalized(_plan(("  ", "pending"), ("x" * 501, "pending")))
    assert problems(plan) == [
        "step 1 has no text",
        "step 2 is longer than 500 characters; say it in one line",
    ]


def test_only_unfinished_steps_left_out_count_as_dropped_whatever_their_spacing_or_case() -> None:
    before = _plan(
        ("Read it", "completed"), ("Fix  the bug", "in_progress"), ("Test", "pending"), ("Old", "cancelled")
    )
    after = _plan(("fix the bug", "completed"))
    assert dropped_steps(before, after) == (PlanStep("Test", "pending"),)
    assert update_result(()) == "Plan updated"
    assert "- Test (was pending)" in update_result(dropped_steps(before, after))


def test_the_plan_as_the_model_reads_it_and_its_state() -> None:
    plan = _plan(
        ("a", "completed"), ("b", "in_progress"), ("c", "pending"), ("d", "cancelled"), explanation="why"
    )
    assert render(plan) == "why\n[x] a\n[>] b\n[ ] c\n[-] d"
    assert render(Plan()) == ""
    assert current_step(plan) == PlanStep("b", "in_progress")
    assert not all_done(plan)
    assert all_done(_plan(("a", "completed"), ("d", "cancelled")))
    assert not all_done(Plan())


def test_the_progress_line_says_how_far_and_what_now() -> None:
    assert progress_line(_plan(("a", "completed"), ("b", "in_progress"), ("c", "pending"))) == (
        "plan 1/3 done; now: b"
    )
    assert progress_line(_plan(("a", "pending"))) == "plan 0/1 done"
    assert progress_line(_plan(("a", "completed"))) == "plan done (1 step)"
