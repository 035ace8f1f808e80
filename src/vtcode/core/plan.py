"""Pure rules of the plan: what a valid update is, which unfinished steps it drops, how it reads as text."""

from __future__ import annotations

from collections.abc import Sequence

from vtcode.protocol.plan import Plan, PlanStatus, PlanStep

MAX_STEPS = 50
MAX_STEP_CHARS = 500
UNFINISHED: frozenset[PlanStatus] = frozenset({"pending", "in_progress"})
_MARKS: dict[PlanStatus, str] = {
    "completed": "[x]",
    "in_progress": "[>]",
    "pending": "[ ]",
    "cancelled": "[-]",
}


def problems(plan: Plan) -> list[str]:
    """What makes `plan` unacceptable (empty when it is fine), each said so the model can correct it."""
    found: list[str] = []
    if len(plan.steps) > MAX_STEPS:
        found.append(f"the plan has {len(plan.steps)} steps; at most {MAX_STEPS} are allowed")
    for number, step in enumerate(plan.steps, 1):
        if not step.step.strip():
            found.append(f"step {number} has no text")
        elif len(step.step) > MAX_STEP_CHARS:
            found.append(f"step {number} is longer than {MAX_STEP_CHARS} characters; say it in one line")
    running = [step.step for step in plan.steps if step.status == "in_progress"]
    if len(running) > 1:
        named = "; ".join(f"{text!r}" for text in running)
        found.append(
            f"{len(running)} steps are in_progress ({named}); at most one step can be in_progress: "
            "mark the others pending or completed"
        )
    return found


def normalized(plan: Plan) -> Plan:
    """`plan` with each step's text on one line without surrounding spaces."""
    steps = tuple(PlanStep(" ".join(step.step.split()), step.status) for step in plan.steps)
    return Plan(steps=steps, explanation=plan.explanation.strip())


def dropped_steps(before: Plan, after: Plan) -> tuple[PlanStep, ...]:
    """The unfinished steps of `before` that `after` no longer lists (compared case-insensitively)."""
    kept = {_key(step.step) for step in after.steps}
    return tuple(step for step in before.steps if step.status in UNFINISHED and _key(step.step) not in kept)


def update_result(dropped: Sequence[PlanStep]) -> str:
    """What the model reads after an accepted update: the dropped unfinished steps named, if any."""
    if not dropped:
        return "Plan updated"
    listed = "\n".join(f"- {step.step} (was {step.status})" for step in dropped)
    return (
        f"Plan updated, but {len(dropped)} unfinished step(s) of the previous plan are no longer in it:\n"
        f"{listed}\n"
        "If they are still to be done, put them back; if they are not needed any more, list them with "
        "status `cancelled` so the user sees they were dropped on purpose."
    )


def render(plan: Plan) -> str:
    """The plan as the model reads it after a compaction (one line per step; empty: no plan)."""
    if not plan.steps:
        return ""
    lines = [f"{_MARKS[step.status]} {step.step}" for step in plan.steps]
    if plan.explanation:
        lines.insert(0, plan.explanation)
    return "\n".join(lines)


def progress_line(plan: Plan) -> str:
    """One line for a log: how far the plan is and the step in progress."""
    if all_done(plan):
        return f"plan done ({steps_word(len(plan.steps))})"
    done = sum(1 for step in plan.steps if step.status not in UNFINISHED)
    now = current_step(plan)
    return f"plan {done}/{len(plan.steps)} done" + (f"; now: {now.step}" if now is not None else "")


def current_step(plan: Plan) -> PlanStep | None:
    """The step in progress, if any."""
    return next((step for step in plan.steps if step.status == "in_progress"), None)


def all_done(plan: Plan) -> bool:
    """Whether the plan has steps and none is left to do."""
    return bool(plan.steps) and all(step.status not in UNFINISHED for step in plan.steps)


def steps_word(count: int) -> str:
    """`1 step`, `3 steps`."""
    return f"{count} step" if count == 1 else f"{count} steps"


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()
