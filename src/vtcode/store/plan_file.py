"""`plan.json` in the session directory: the agent's current plan, replaced atomically on every update."""

from __future__ import annotations

from pathlib import Path

from vtcode.protocol.plan import PLAN_SCHEMA_VERSION, Plan
from vtcode.store.state_file import StateFile

PLAN_FILE = "plan.json"

_PLAN = StateFile(
    PLAN_FILE,
    Plan,
    newest=PLAN_SCHEMA_VERSION,
    damaged_hint="the plan file is damaged; delete it",
    newer_hint="upgrade vtcode to see this session's plan",
)


def read_plan(session_dir: Path) -> Plan | None:
    """The stored plan, None when there is none; a damaged or newer file is a `StoreError`."""
    return _PLAN.read(session_dir)


def write_plan(session_dir: Path, plan: Plan) -> None:
    """Replace the stored plan durably (raises `StoreError`)."""
    _PLAN.write(session_dir, plan)
