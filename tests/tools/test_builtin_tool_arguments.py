"""What the built-in tools beyond the file tools take as arguments: what their schema says, and no more.

Each call below fails before it does anything (a missing working directory, a session that does not
exist, a skill nobody offers), so the error says whether the arguments were taken or refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vtcode.exec.manager import SessionManager
from vtcode.protocol.plan import Plan, PlanStep
from vtcode.tools.base import Tool, ToolContext
from vtcode.tools.exec_command import ExecCommandTool
from vtcode.tools.recall_history import RecallHistoryTool
from vtcode.tools.skill import SkillTool
from vtcode.tools.update_plan import UpdatePlanTool
from vtcode.tools.web_fetch import WebFetchTool
from vtcode.tools.write_stdin import WriteStdinTool

_NO_SESSION = "exec session 'run-none' not found"


class _Board:
    async def replace(self, plan: Plan) -> tuple[PlanStep, ...]:
        return ()


def _tools(workspace: Path) -> list[tuple[Tool, dict[str, Any]]]:
    """Each tool with arguments it takes that make the call fail before it starts anything."""
    sessions = SessionManager(workspace, {})
    return [
        (ExecCommandTool(sessions), {"cmd": "true", "workdir": "missing"}),
        (WriteStdinTool(sessions), {"session_id": "run-none"}),
        (RecallHistoryTool(list), {"segment": 1}),
        (UpdatePlanTool(_Board()), {"plan": [{"step": "a", "status": "pending"}] * 2, "explanation": "x"}),
        (WebFetchTool(), {"url": "file:///etc/passwd"}),
        (SkillTool({}), {"name": "none"}),
    ]


async def test_every_tool_refuses_a_key_its_schema_does_not_list(tmp_path: Path) -> None:
    ctx = ToolContext(workspace=tmp_path)
    for tool, base in _tools(tmp_path):
        outcome = await tool.run({**base, "bogus": 1}, ctx)
        assert outcome.is_error, tool.spec.name
        assert "Object contains unknown field `bogus`" in outcome.content, tool.spec.name


async def test_every_advertised_key_is_taken_and_checked(tmp_path: Path) -> None:
    ctx = ToolContext(workspace=tmp_path)
    for tool, base in _tools(tmp_path):
        for key in tool.spec.parameters["properties"]:
            # An object is the wrong value for every parameter: refused as mistyped, never as unknown.
            outcome = await tool.run({**base, key: {"x": 1}}, ctx)
            assert outcome.is_error, (tool.spec.name, key)
            assert "unknown field" not in outcome.content, (tool.spec.name, key)
            assert key in outcome.content, (tool.spec.name, key)


@pytest.mark.parametrize(
    "arguments",
    [
        # The reference's alias of wait_timeout_seconds, taken though never advertised.
        {"timeout_seconds": 5},
        # Advertised as whole seconds; a fraction or a numeric string is taken all the same.
        {"action": "wait", "wait_timeout_seconds": 1.5},
        {"action": "WAIT", "wait_timeout_seconds": "2"},
        # Advertised from 0; a negative window is clamped, not refused.
        {"action": "poll", "yield_time_ms": -1},
    ],
)
async def test_write_stdin_takes_what_it_advertises_otherwise(
    tmp_path: Path, arguments: dict[str, Any]
) -> None:
    tool = WriteStdinTool(SessionManager(tmp_path, {}))
    outcome = await tool.run({"session_id": "run-none", **arguments}, ToolContext(workspace=tmp_path))
    assert _NO_SESSION in outcome.content
    assert "timeout_seconds" not in tool.spec.parameters["properties"]


async def test_exec_command_clamps_a_negative_yield_instead_of_refusing_it(tmp_path: Path) -> None:
    tool = ExecCommandTool(SessionManager(tmp_path, {}))
    outcome = await tool.run({"cmd": "", "yield_time_ms": -1}, ToolContext(workspace=tmp_path))
    assert "Command cannot be empty" in outcome.content


async def test_a_plan_step_without_a_status_is_refused(tmp_path: Path) -> None:
    outcome = await UpdatePlanTool(_Board()).run({"plan": [{"step": "a"}]}, ToolContext(workspace=tmp_path))
    assert outcome.is_error
    assert outcome.content == (
        "plan not updated: invalid arguments: Object missing required field `status` - at `$.plan[0]`"
    )
