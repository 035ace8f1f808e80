"""`update_plan`: the model keeps a short plan the user sees (Codex's tool, plus a `cancelled` status).

Each call replaces the whole plan. The session owns the plan (`PlanBoard`); this checks the call and
answers the model, naming the unfinished steps an update dropped so none disappears silently.
"""

from __future__ import annotations

from typing import Annotated, Any, Protocol, get_args

import msgspec

from vtcode.core.plan import normalized, problems, update_result
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.plan import Plan, PlanStatus, PlanStep
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome


class _Step(msgspec.Struct, forbid_unknown_fields=True):
    # Unlike a stored `PlanStep`, whose status defaults to pending, the model must give each status.
    step: str
    status: Annotated[PlanStatus, msgspec.Meta(description=f"One of: {', '.join(get_args(PlanStatus))}")]


# kw_only: the optional explanation is listed first, as the model has always been told.
class _Args(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    explanation: Annotated[
        str | None,
        msgspec.Meta(description="Why the plan is what it is (optional)."),
    ] = None
    plan: Annotated[list[_Step], msgspec.Meta(description="The list of steps.")]


_SPEC = ToolSpec(
    name="update_plan",
    description=(
        "Keep a short step-by-step plan of the task the user can follow. Each call replaces the whole "
        "plan: list every step with its status. At most one step is `in_progress` at a time; mark a step "
        "`completed` when it is done and a step no longer needed `cancelled` (do not just leave it out). "
        "Skip the plan for simple tasks of one or two steps."
    ),
    parameters=tool_parameters(_Args),
)


class PlanBoard(Protocol):
    """Where the session keeps its plan."""

    async def replace(self, plan: Plan) -> tuple[PlanStep, ...]:
        """Make `plan` current; the unfinished steps of the previous plan it no longer lists."""
        ...


class UpdatePlanTool:
    """Replaces the session's plan."""

    def __init__(self, board: PlanBoard) -> None:
        self._board = board

    spec = _SPEC
    # The plan is the session's own note: it changes nothing in the workspace, so no approval.
    kind: ToolKind = "read"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """How many steps, and the one in progress."""
        steps = arguments.get("plan")
        if not isinstance(steps, list):
            return CallDescription(display="plan")
        running = next(
            (s.get("step") for s in steps if isinstance(s, dict) and s.get("status") == "in_progress"), None
        )
        shown = f"{len(steps)} steps"
        return CallDescription(display=f"{shown}: {running}" if isinstance(running, str) else shown)

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Replace the plan, or say why the update is refused (the plan then stays as it was)."""
        try:
            args = parse_arguments(arguments, _Args)
        except VtcodeError as error:
            hint = (
                f" (a status is one of: {', '.join(get_args(PlanStatus))})"
                if ".status`" in error.message
                else ""
            )
            return ToolOutcome(f"plan not updated: {error.message}{hint}", is_error=True)
        plan = normalized(
            Plan(
                steps=tuple(PlanStep(step.step, step.status) for step in args.plan),
                explanation=args.explanation or "",
            )
        )
        found = problems(plan)
        if found:
            return ToolOutcome("plan not updated: " + "; ".join(found), is_error=True)
        dropped = await self._board.replace(plan)
        return ToolOutcome(update_result(dropped), extra={"steps": len(plan.steps), "dropped": len(dropped)})
