"""The specs of the built-in tools, byte for byte, as every provider request carries them.

A spec is what the model is told (name, description, JSON Schema parameters with its key order); a
change of one byte changes every request and the providers' prompt-cache prefix. Regenerate the golden
file with VTCODE_UPDATE_GOLDEN=1 after a deliberate change of a tool's spec; review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest

from vtcode.exec.manager import SessionManager
from vtcode.instructions.agent_files import AgentCatalog
from vtcode.protocol.model import ToolSpec
from vtcode.protocol.plan import Plan, PlanStep
from vtcode.runtime.subagents import TaskTool
from vtcode.tools.registry import builtin_tools
from vtcode.tools.skill import skill_spec
from vtcode.tools.web_fetch import WebFetchTool

GOLDEN = Path(__file__).parent / "golden" / "builtin_tool_specs.jsonl"
UPDATE = os.environ.get("VTCODE_UPDATE_GOLDEN") == "1"


class _Board:
    async def replace(self, plan: Plan) -> tuple[PlanStep, ...]:
        return ()


def _no_catalog() -> AgentCatalog:
    raise AssertionError("a task tool given its offered types describes them without the catalog")


def _specs(workspace: Path) -> list[ToolSpec]:
    """Every tool vtcode offers of its own, in the order of a session's tool list."""
    tools = builtin_tools(SessionManager(workspace, {}), archive=list, plan=_Board())
    task = TaskTool(_no_catalog, max_concurrent=1, offered=[("explore", "Reads."), ("general", "Does.")])
    return [
        *(tool.spec for tool in tools),
        WebFetchTool().spec,
        skill_spec(["pdf-forms", "release-notes"]),
        task.spec,
    ]


def _name(line: bytes) -> str:
    return str(msgspec.json.decode(line)["name"])


def test_builtin_tool_specs_match_the_golden_bytes(tmp_path: Path) -> None:
    lines = [msgspec.json.encode(spec) for spec in _specs(tmp_path)]
    if UPDATE:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_bytes(b"".join(line + b"\n" for line in lines))
        pytest.skip("golden tool specs rewritten")
    golden = GOLDEN.read_bytes().splitlines()
    # One line per tool, so a failure names the tool whose schema moved.
    assert [_name(line) for line in lines] == [_name(line) for line in golden]
    for line, expected in zip(lines, golden, strict=True):
        assert line == expected
