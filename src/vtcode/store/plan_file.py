"""`plan.json` in the session directory: the agent's current plan, replaced atomically on every update."""

from __future__ import annotations

from pathlib import Path

import msgspec

from vtcode.protocol.plan import PLAN_SCHEMA_VERSION, Plan
from vtcode.store.state_file import read_state_file, write_state_file

PLAN_FILE = "plan.json"

_decoder = msgspec.json.Decoder(Plan)


def read_plan(session_dir: Path) -> Plan | None:
    """The stored plan, None when there is none; a damaged or newer file is a `StoreError`."""
    return read_state_file(
        session_dir / PLAN_FILE,
        _decoder,
        name="plan",
        newest=PLAN_SCHEMA_VERSION,
        damaged_hint="the plan file is damaged; delete it",
        newer_hint="upgrade vtcode to see this session's plan",
    )


def write_plan(session_dir: Path, plan: Plan) -> None:
    """Replace the stored plan durably (raises `StoreError`)."""
    write_state_file(session_dir / PLAN_FILE, plan)
