"""`exec --json` streams as ATIF trajectories: golden conversions of the checked-in streams, and the rules
every conversion keeps (sequential steps, calls answered in their own step, token sums).

Regenerate the stored trajectories with VTCODE_UPDATE_GOLDEN=1 after a deliberate change; review the diff.
Harbor's own validator checks the same files in integrations/harbor/tests (Python 3.12, harbor pinned).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from vtcode.core.atif import trajectory_from_events

TESTS = Path(__file__).resolve().parent.parent
GOLDEN = TESTS / "core" / "fixtures" / "atif"
UPDATE = os.environ.get("VTCODE_UPDATE_GOLDEN") == "1"

# Each stored stream, the model it ran with, and the instruction it was given.
STREAMS: dict[str, tuple[Path, str | None, str | None]] = {
    "exec_json_anthropic": (
        TESTS / "e2e/fixtures/exec_json_anthropic.jsonl",
        "anthropic/claude-sonnet-4-5",
        "fix it",
    ),
    "exec_json_chat": (TESTS / "e2e/fixtures/exec_json_chat.jsonl", "openai/gpt-4.1", "fix it"),
    "exec_json_responses": (TESTS / "e2e/fixtures/exec_json_responses.jsonl", "openai/gpt-5", "fix it"),
    # Every event type of the v1 format: compaction, a steering intent, a failed turn.
    "events_v1": (TESTS / "protocol/fixtures/events_v1.jsonl", None, "fix the calculator"),
    # Stamped events (timestamps), a compaction with its reason and notes, an interrupted turn.
    "events_v1_stamped": (TESTS / "protocol/fixtures/events_v1_stamped.jsonl", "openai/gpt-5", None),
    # A real steered run (tests/e2e/test_exec_steered_stream.py keeps it true): an intent sent while a
    # command ran, applied after it.
    "steered": (GOLDEN / "steered.jsonl", "openai/gpt-4.1", "tidy the repo"),
}


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _convert(name: str) -> dict[str, object]:
    path, model, instruction = STREAMS[name]
    return trajectory_from_events(
        _events(path),
        session_id=f"session-{name}",
        agent_version="0.1.0",
        model_name=model,
        instruction=instruction,
    )


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_stored_streams_convert_to_the_golden_trajectories(name: str) -> None:
    got = _convert(name)
    golden = GOLDEN / f"{name}.json"
    if UPDATE:
        golden.write_text(json.dumps(got, indent=2, sort_keys=True) + "\n")
    assert got == json.loads(golden.read_text())


def _steps(trajectory: Mapping[str, object]) -> list[dict[str, Any]]:
    steps = trajectory["steps"]
    assert isinstance(steps, list)
    return steps


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_steps_are_sequential_and_every_result_answers_a_call_of_its_step(name: str) -> None:
    steps = _steps(_convert(name))
    assert [s["step_id"] for s in steps] == list(range(1, len(steps) + 1))
    for step in steps:
        calls = {c["tool_call_id"] for c in step.get("tool_calls", [])}
        results = [r.get("source_call_id") for r in step.get("observation", {}).get("results", [])]
        if step["source"] == "system":
            assert results == [None]
        else:
            assert sorted(results) == sorted(calls)


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_final_token_totals_are_the_sum_of_the_turns(name: str) -> None:
    path = STREAMS[name][0]
    turns = [e["usage"] for e in _events(path) if e["type"] == "turn.completed"]
    trajectory = _convert(name)
    final = trajectory["final_metrics"]
    assert isinstance(final, dict)
    assert final["total_prompt_tokens"] == sum(u.get("input_tokens", 0) for u in turns)
    assert final["total_completion_tokens"] == sum(u.get("output_tokens", 0) for u in turns)
    assert final["total_cached_tokens"] == sum(u.get("cached_input_tokens", 0) for u in turns)
    per_step = [s["metrics"] for s in _steps(trajectory) if "metrics" in s]
    assert sum(m["prompt_tokens"] for m in per_step) == final["total_prompt_tokens"]
    assert final["total_steps"] == len(_steps(trajectory))


def test_a_wire_stream_gives_the_instruction_answer_tools_and_observations() -> None:
    steps = _steps(_convert("exec_json_chat"))
    assert [s["source"] for s in steps] == ["user", "agent", "agent"]
    assert steps[0]["message"] == "fix it"
    calls = steps[1]["tool_calls"]
    assert [c["function_name"] for c in calls] == ["read_file", "apply_patch", "exec_command"]
    assert calls[2]["arguments"] == {"command": "python3 check.py"}
    command_result = steps[1]["observation"]["results"][2]
    assert command_result["content"] == "ok: 1 passed\n"
    assert command_result["extra"]["exit_code"] == 0
    assert (steps[2]["message"], steps[2]["reasoning_content"]) == ("Fixed.", "all good")


def test_compaction_becomes_a_replacing_system_step() -> None:
    steps = _steps(_convert("events_v1_stamped"))
    compaction = next(s for s in steps if s["source"] == "system")
    assert compaction["extra"]["context_management"] == {"type": "compaction", "boundary": "replace"}
    details = compaction["observation"]["results"][0]["extra"]
    assert (details["before_messages"], details["after_messages"]) == (820, 31)
    assert details["artifact_path"] == "archive/compaction-0007.jsonl"
    assert compaction["timestamp"].startswith("2026-")


def test_an_applied_steering_intent_is_a_user_step_with_its_text() -> None:
    trajectory = _convert("steered")
    steps = _steps(trajectory)
    steered = [s for s in steps if s["source"] == "user" and "steering" in s.get("extra", {})]
    assert [s["message"] for s in steered] == ["also delete the scratch file"]
    # It stands where it applied: after the reply that was running when it was queued.
    index = steps.index(steered[0])
    assert steps[index - 1]["source"] == "agent"
    assert steps[index + 1]["source"] == "agent"


def test_a_failed_turn_is_recorded_on_the_last_step_and_in_the_notes() -> None:
    trajectory = _convert("events_v1_stamped")
    last = _steps(trajectory)[-1]
    assert last["extra"]["error"]["kind"] == "interrupted"
    assert "interrupted by the user" in str(trajectory["notes"])


def test_an_empty_stream_still_gives_a_trajectory_with_one_step() -> None:
    trajectory = trajectory_from_events([], session_id="s", agent_version="0.1.0", model_name=None)
    assert [s["source"] for s in _steps(trajectory)] == ["system"]


def test_a_line_that_is_not_an_object_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="must be a JSON object, got list"):
        trajectory_from_events([[]], session_id="s", agent_version="0.1.0", model_name=None)  # type: ignore[list-item]
