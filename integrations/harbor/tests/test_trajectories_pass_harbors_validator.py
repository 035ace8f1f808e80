"""vtcode's ATIF conversion against Harbor's own validator: the golden trajectories of the main suite
(tests/core/fixtures/atif), and the trajectory VTCodeAgent writes from a run's events."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harbor.models.agent.context import AgentContext

from conftest import REPO
from vtcode_harbor.agent import VTCodeAgent

GOLDEN = REPO / "tests" / "core" / "fixtures" / "atif"
GOLDEN_TRAJECTORIES = sorted(GOLDEN.glob("*.json"))


def test_the_golden_trajectories_are_all_here() -> None:
    assert {p.stem for p in GOLDEN_TRAJECTORIES} >= {
        "exec_json_anthropic",
        "exec_json_chat",
        "exec_json_responses",
        "events_v1",
        "events_v1_stamped",
        "steered",
    }


@pytest.mark.parametrize("path", GOLDEN_TRAJECTORIES, ids=lambda p: p.stem)
def test_a_golden_trajectory_passes_harbors_validator(path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "harbor.utils.trajectory_validator", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Trajectory is valid" in proc.stdout


def test_the_agent_turns_a_runs_events_into_tokens_and_a_valid_trajectory(tmp_path: Path) -> None:
    logs = tmp_path / "agent"
    logs.mkdir()
    shutil.copy(REPO / "tests" / "e2e" / "fixtures" / "exec_json_anthropic.jsonl", logs / "vtcode.jsonl")
    # A torn last line, as a killed run leaves it, is skipped.
    with (logs / "vtcode.jsonl").open("a") as events:
        events.write('{"type": "turn.sta')
    (logs / "exit_code").write_text("0\n")
    agent = VTCodeAgent(logs_dir=logs, model_name="anthropic/claude-sonnet-4-5", version="0.1.0")
    context = AgentContext()
    agent.populate_context_post_run(context)
    assert (context.n_input_tokens, context.n_cache_tokens, context.n_output_tokens) == (40, 0, 20)
    assert context.cost_usd == pytest.approx(0.00042)
    written = json.loads((logs / "trajectory.json").read_text())
    assert written["agent"] == {
        "name": "vtcode",
        "version": "0.1.0",
        "model_name": "anthropic/claude-sonnet-4-5",
    }
    assert [s["source"] for s in written["steps"]] == ["agent", "agent"]
    proc = subprocess.run(
        [sys.executable, "-m", "harbor.utils.trajectory_validator", str(logs / "trajectory.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_a_run_that_left_no_events_leaves_the_context_empty(tmp_path: Path) -> None:
    agent = VTCodeAgent(logs_dir=tmp_path, model_name="openai/gpt-4.1", version="0.1.0")
    context = AgentContext()
    agent.populate_context_post_run(context)
    assert context.is_empty()
    assert not (tmp_path / "trajectory.json").exists()
