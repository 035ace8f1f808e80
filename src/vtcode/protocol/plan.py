"""The agent's plan (`update_plan`): steps with a status, as events carry it and the session stores it."""

from __future__ import annotations

from typing import Literal

import msgspec

PLAN_SCHEMA_VERSION = 1

# Codex's three statuses, plus `cancelled` for a step that is no longer needed: dropping an unfinished
# step silently is what the tool reports back to the model (reference extensibility 6, 11.6).
PlanStatus = Literal["pending", "in_progress", "completed", "cancelled"]


class PlanStep(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One step of the plan and where it stands."""

    step: str
    status: PlanStatus = "pending"


class Plan(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The whole plan; each `update_plan` call replaces it (`plan.json` in the session directory)."""

    steps: tuple[PlanStep, ...] = ()
    explanation: str = ""
    schema_version: int = PLAN_SCHEMA_VERSION
