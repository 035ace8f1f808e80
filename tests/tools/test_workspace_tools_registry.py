"""The registry's tools and their specs: names, read-only flags, schemas that match validation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vtcode.tools.base import CallDescription, Tool, ToolContext
from vtcode.tools.registry import workspace_tools

SAMPLES: dict[str, Any] = {
    "path": "a.txt",
    "offset": 1,
    "limit": 1,
    "pattern": "x",
    "glob": "*.txt",
    "max_results": 1,
    "content": "x\n",
    "patch": "*** Begin Patch\n*** Add File: new.txt\n+x\n*** End Patch",
}


def test_names_and_kinds() -> None:
    tools: list[Tool] = workspace_tools()
    assert [(tool.spec.name, tool.kind) for tool in tools] == [
        ("read_file", "read"),
        ("list_files", "read"),
        ("grep_files", "read"),
        ("write_file", "edit"),
        ("apply_patch", "edit"),
    ]


def test_calls_describe_their_paths_and_display_form() -> None:
    read, listing, grep, write, patch = workspace_tools()
    assert read.describe({"path": "src/a.py"}) == CallDescription("src/a.py", paths=("src/a.py",))
    assert listing.describe({}) == CallDescription(".", paths=(".",))
    assert grep.describe({"pattern": "TODO", "path": "src"}) == CallDescription("TODO in src", paths=("src",))
    assert write.describe({"path": 3}) == CallDescription("")
    body = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** End Patch\n"
    assert patch.describe({"patch": body}) == CallDescription("a.py, b.py", paths=("a.py", "b.py"))


def test_schemas_are_closed_objects_with_described_properties() -> None:
    for tool in workspace_tools():
        schema = tool.spec.parameters
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False
        assert set(schema["required"]) <= set(schema["properties"])
        for name, prop in schema["properties"].items():
            assert prop["description"], (tool.spec.name, name)
        assert len(tool.spec.description) > 80


async def test_validation_accepts_exactly_the_schema_properties(workspace: Path) -> None:
    (workspace / "a.txt").write_text("x\n")
    ctx = ToolContext(workspace=workspace)
    for tool in workspace_tools():
        schema = tool.spec.parameters
        required = {name: SAMPLES[name] for name in schema["required"]}
        for name in schema["properties"]:
            outcome = await tool.run({**required, name: SAMPLES[name]}, ctx)
            assert "invalid arguments" not in outcome.content, (tool.spec.name, outcome)
        unknown = await tool.run({**required, "bogus": 1}, ctx)
        assert unknown.is_error
        assert (
            unknown.content == f"{tool.spec.name}: invalid arguments: Object contains unknown field `bogus`"
        )
        for name in schema["required"]:
            missing = await tool.run({k: v for k, v in required.items() if k != name}, ctx)
            assert missing.content == (
                f"{tool.spec.name}: invalid arguments: Object missing required field `{name}`"
            )
