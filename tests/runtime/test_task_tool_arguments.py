"""The `task` tool's parameters are declared once: the schema the model is offered and the check of what
it sends come from one Struct, so a call outside the schema is answered with an error the model can fix
and starts no child."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.test_subagents import run, tool_results
from vtcode.testing.script import Reply, ScriptToolCall, Step

_OFFERED = {
    "type": "object",
    "properties": {
        "subagent_type": {
            "type": "string",
            "enum": ["explore", "general"],
            "description": "Which subagent runs the task.",
        },
        "description": {
            "type": "string",
            "description": "A short (3-7 words) label for the task, shown to the user.",
        },
        "prompt": {"type": "string", "description": "The complete, self-contained brief for the subagent."},
        "resume": {
            "type": "string",
            "description": "The agent id (`agent-...`) of an earlier subagent to continue with this prompt; "
            "omit it to start a new one.",
        },
        "model": {
            "type": "string",
            "description": "A model for this subagent (for example a smaller one for a simple search); omit "
            "it for the subagent type's own model, or yours.",
        },
    },
    "required": ["subagent_type", "description", "prompt"],
    "additionalProperties": False,
}


async def test_the_task_tool_offers_the_subagent_types_and_its_three_required_parameters(
    tmp_path: Path,
) -> None:
    _, bodies = await run(tmp_path, tmp_path, [Reply(text="hi")], "go")
    task = next(t for t in bodies[0]["tools"] if t["function"]["name"] == "task")
    assert json.dumps(task["function"]["parameters"]) == json.dumps(_OFFERED)


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (
            {"subagent_type": "explore", "description": "look", "prompt": "read it", "background": True},
            "background",
        ),
        ({"subagent_type": "explore", "prompt": "read it"}, "description"),
        ({"subagent_type": "explore", "description": "look", "prompt": 7}, "prompt"),
    ],
)
async def test_a_task_call_outside_the_schema_is_an_error_result_and_starts_no_child(
    tmp_path: Path, arguments: dict[str, Any], named: str
) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(ScriptToolCall("task", json.dumps(arguments), id="t1"),)),
        Reply(text="CHILD-SHOULD-NOT-RUN"),
        Reply(text="done"),
    ]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    # The second request is the parent's, with the error as the call's result; no child asked the model.
    result = tool_results(bodies[1])["t1"]
    assert result.startswith("ERROR: invalid arguments"), result
    assert named in result


def _with_model(model: str) -> Reply:
    arguments = {"subagent_type": "explore", "description": "look", "prompt": "read it", "model": model}
    return Reply(tool_calls=(ScriptToolCall("task", json.dumps(arguments), id="t1"),))


@pytest.mark.parametrize(("asked", "used"), [("gpt-4.1-mini", "gpt-4.1-mini"), ("haiku", "gpt-4.1")])
async def test_a_task_call_can_choose_the_childs_model(tmp_path: Path, asked: str, used: str) -> None:
    steps: list[Step] = [_with_model(asked), Reply(text="child"), Reply(text="done")]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    assert bodies[0]["model"] == "gpt-4.1"
    # Claude Code's aliases keep the parent's model; a catalog name is used as it is.
    assert bodies[1]["model"] == used
    assert bodies[2]["model"] == "gpt-4.1"


async def test_an_unknown_model_for_a_child_is_an_error_and_starts_no_child(tmp_path: Path) -> None:
    steps: list[Step] = [_with_model("gpt-9000-nope"), Reply(text="CHILD-SHOULD-NOT-RUN"), Reply(text="done")]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    assert tool_results(bodies[1])["t1"] == (
        "ERROR: unknown model 'gpt-9000-nope': name one from the model catalog or a [models] table, or leave "
        "`model` out to use the subagent's own"
    )
