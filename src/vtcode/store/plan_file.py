"""`plan.json` in the session directory: the agent's current plan, replaced atomically on every update."""

from __future__ import annotations

from pathlib import Path

import msgspec

from vtcode.protocol.errors import StoreError
from vtcode.protocol.plan import PLAN_SCHEMA_VERSION, Plan
from vtcode.store.atomic import atomic_write
from vtcode.store.errors import store_error

PLAN_FILE = "plan.json"

_decoder = msgspec.json.Decoder(Plan)


def read_plan(session_dir: Path) -> Plan | None:
    """The stored plan, None when there is none; a damaged or newer file is a `StoreError`."""
    path = session_dir / PLAN_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise store_error(error, "read", path) from error
    try:
        plan = _decoder.decode(data)
    except msgspec.DecodeError as error:
        raise StoreError(f"{path}: {error}", hint="the plan file is damaged; delete it") from error
    if plan.schema_version > PLAN_SCHEMA_VERSION:
        raise StoreError(
            f"{path}: plan has schema_version {plan.schema_version}, this vtcode reads up to "
            f"{PLAN_SCHEMA_VERSION}",
            hint="upgrade vtcode to see this session's plan",
        )
    return plan


def write_plan(session_dir: Path, plan: Plan) -> None:
    """Replace the stored plan durably (raises `StoreError`)."""
    atomic_write(session_dir / PLAN_FILE, msgspec.json.format(msgspec.json.encode(plan)) + b"\n")
