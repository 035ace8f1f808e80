"""Tool schemas from MCP servers are accepted by every provider's documented rules, in a stable form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.mcp.everything import everything_command
from tests.mcp.provider_rules import anthropic_problems, gemini_problems, openai_strict_problems
from vtcode.config.schema import McpServerSettings, McpSettings
from vtcode.core.mcp_names import MAX_NAME, assign_names, base_name
from vtcode.core.tool_schema import drop_unset, gemini_schema, normalise_schema
from vtcode.mcp.manager import McpManager
from vtcode.mcp.servers import ServerDefinition, ServerPlan

AWKWARD: dict[str, Any] = {
    "type": "object",
    "title": "Args",
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {"value": {"type": "integer", "minimum": 0}, "next": {"$ref": "#/$defs/Node"}},
            "required": ["value"],
        },
        "Mode": {"enum": ["fast", "slow"]},
    },
    "properties": {
        "list": {"$ref": "#/$defs/Node"},
        "mode": {"$ref": "#/$defs/Mode", "description": "how"},
        "either": {"oneOf": [{"type": "string", "format": "uri"}, {"type": "integer"}]},
        "both": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}]},
        "anything": {},
        "tags": {"type": "array", "items": {"type": "string", "minLength": 1}, "uniqueItems": True},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "never": {"not": {"type": "string"}},
    },
    "required": ["list"],
}


def test_awkward_schemas_become_strict_and_anthropic_compatible() -> None:
    normalised = normalise_schema(AWKWARD)
    assert openai_strict_problems(normalised.schema) == []
    assert anthropic_problems("mcp__x__y", normalised.schema) == []
    # Dropped constraints stay readable for the model.
    node = normalised.schema["properties"]["list"]["properties"]["value"]
    assert node["description"] == "(minimum 0)"
    assert normalised.schema["properties"]["mode"]["enum"] == ["fast", "slow", None]
    assert ("mode",) in normalised.optional
    assert ("list",) not in normalised.optional


def _keywords_reversed(node: Any, *, names: bool = False) -> Any:
    """`node` with its keywords in reverse order (property names keep the server's order)."""
    if isinstance(node, list):
        return [_keywords_reversed(v) for v in node]
    if not isinstance(node, dict):
        return node
    items = list(node.items()) if names else list(reversed(node.items()))
    return {k: _keywords_reversed(v, names=k in ("properties", "$defs")) for k, v in items}


def test_the_gemini_form_has_one_type_per_schema_and_nullable_for_null() -> None:
    gemini = gemini_schema(normalise_schema(AWKWARD).schema)
    assert gemini_problems(gemini) == []
    assert gemini["properties"]["tags"] == {
        "type": "array",
        "items": {"type": "string", "description": "(minLength 1)"},
        "description": "(uniqueItems true)",
        "nullable": True,
    }
    assert gemini["properties"]["mode"]["enum"] == ["fast", "slow"]


def test_the_same_schema_always_gives_the_same_bytes() -> None:
    one = json.dumps(normalise_schema(AWKWARD).schema)
    assert one == json.dumps(normalise_schema(_keywords_reversed(AWKWARD)).schema)


def test_null_for_an_optional_argument_is_dropped_but_kept_where_required() -> None:
    optional = normalise_schema(AWKWARD).optional
    arguments = {"list": {"value": 1, "next": None}, "mode": None, "tags": ["a"]}
    assert drop_unset(arguments, optional) == {"list": {"value": 1}, "tags": ["a"]}


@given(st.text(min_size=1, max_size=80), st.text(min_size=1, max_size=80))
def test_tool_names_fit_every_provider(server: str, tool: str) -> None:
    name = base_name(server, tool)
    assert anthropic_problems(name, {"type": "object"}) == []
    assert len(name) <= MAX_NAME
    assert name.startswith("mcp__")


def test_colliding_names_are_resolved_the_same_way_in_any_order() -> None:
    pairs = [("a.b", "t"), ("a_b", "t"), ("s", "x" * 100), ("s", "x" * 101)]
    names = assign_names(pairs)
    assert len(set(names.values())) == 4
    assert names == assign_names(reversed(pairs))
    assert names[("a.b", "t")] == "mcp__a_b__t"


async def test_every_tool_of_the_reference_server_is_accepted_by_openai_anthropic_and_gemini(
    tmp_path: Path,
) -> None:
    node, entry = everything_command()
    definition = ServerDefinition("everything", McpServerSettings(command=node, args=(entry, "stdio")))
    manager = McpManager(
        ServerPlan(servers=(definition,)), env={}, workspace=tmp_path, settings=McpSettings()
    )
    manager.start()
    try:
        await manager.wait_started(30)
        tools = manager.tools()
        assert manager.statuses()[0].state == "ready", manager.statuses()
    finally:
        await manager.aclose()
    assert len(tools) >= 5
    problems = {
        t.spec.name: openai_strict_problems(t.spec.parameters)
        + anthropic_problems(t.spec.name, t.spec.parameters)
        + gemini_problems(gemini_schema(t.spec.parameters))
        for t in tools
    }
    assert {name: p for name, p in problems.items() if p} == {}
    assert [t.spec.name for t in tools] == sorted(t.spec.name for t in tools)
