"""`plan.json`: the stored plan keeps loading, is replaced whole, and a bad file is a clear error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from vtcode.protocol.errors import StoreError
from vtcode.protocol.plan import Plan, PlanStep
from vtcode.store.plan_file import PLAN_FILE, read_plan, write_plan

GOLDEN = Path(__file__).parent / "fixtures" / "plan_v1.json"


def test_the_golden_plan_file_loads_with_every_status(tmp_path: Path) -> None:
    shutil.copy(GOLDEN, tmp_path / PLAN_FILE)
    assert read_plan(tmp_path) == Plan(
        steps=(
            PlanStep("Read the parser", "completed"),
            PlanStep("Fix the off-by-one", "in_progress"),
            PlanStep("Update the docs", "cancelled"),
            PlanStep("Run the tests", "pending"),
        ),
        explanation="parser first",
    )


def test_a_written_plan_reads_back_and_replaces_the_previous_one(tmp_path: Path) -> None:
    assert read_plan(tmp_path) is None
    write_plan(tmp_path, Plan(steps=(PlanStep("one"), PlanStep("two"))))
    later = Plan(steps=(PlanStep("one", "completed"),))
    write_plan(tmp_path, later)
    assert read_plan(tmp_path) == later


def test_the_golden_plan_is_written_byte_for_byte_as_the_fixture(tmp_path: Path) -> None:
    shutil.copy(GOLDEN, tmp_path / PLAN_FILE)
    plan = read_plan(tmp_path)
    assert plan is not None
    (tmp_path / PLAN_FILE).unlink()
    write_plan(tmp_path, plan)
    assert (tmp_path / PLAN_FILE).read_bytes() == GOLDEN.read_bytes()


def test_a_damaged_or_newer_plan_file_is_a_store_error_with_a_hint(tmp_path: Path) -> None:
    (tmp_path / PLAN_FILE).write_text('{"steps": [{"step": "x", "status": "maybe"}]}')
    with pytest.raises(StoreError) as damaged:
        read_plan(tmp_path)
    assert "plan.json" in damaged.value.message
    assert damaged.value.hint == "the plan file is damaged; delete it"
    (tmp_path / PLAN_FILE).write_text('{"steps": [], "schema_version": 9}')
    with pytest.raises(StoreError, match="schema_version 9"):
        read_plan(tmp_path)
