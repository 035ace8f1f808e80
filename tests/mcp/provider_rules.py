"""The tool schema rules providers document, as checks: OpenAI strict mode and Anthropic tools.

OpenAI (Structured Outputs / strict function calling, "Supported schemas"): the root is an object and
not `anyOf`; every object sets `additionalProperties: false` and lists every property in `required`
(optional fields are expressed as a union with `null`); each schema has a `type` (a string or a list)
or is an `anyOf`; keywords outside the supported set (string/number/array constraints, `oneOf`,
`allOf`, `not`, `patternProperties`, ...) are rejected; at most 10 levels of nesting and 5000 properties.
Anthropic (tool use, `input_schema`): a JSON Schema object whose root `type` is `object`; tool names
match `^[a-zA-Z0-9_-]{1,64}$`.
"""

from __future__ import annotations

import re
from typing import Any

_OPENAI_KEYWORDS = {
    "type", "description", "properties", "required", "additionalProperties", "items", "enum", "const",
    "anyOf", "$ref", "$defs", "title",
}  # fmt: skip
_OPENAI_TYPES = {"string", "number", "integer", "boolean", "object", "array", "null"}
_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def openai_strict_problems(schema: dict[str, Any]) -> list[str]:
    """Every way `schema` breaks the OpenAI strict-mode rules (empty: accepted)."""
    problems: list[str] = []
    if schema.get("type") != "object" or "anyOf" in schema:
        problems.append("root: must be type object and not anyOf")
    counter = [0]
    _openai(schema, "$", 0, problems, counter)
    if counter[0] > 5000:
        problems.append("more than 5000 properties")
    return problems


def _openai(node: Any, where: str, depth: int, problems: list[str], counter: list[int]) -> None:
    if not isinstance(node, dict):
        problems.append(f"{where}: a schema must be an object")
        return
    if depth > 10:
        problems.append(f"{where}: nested more than 10 levels")
    for key in node:
        if key not in _OPENAI_KEYWORDS:
            problems.append(f"{where}: keyword {key!r} is not supported")
    kind = node.get("type")
    if kind is None and "anyOf" not in node:
        problems.append(f"{where}: needs a type or anyOf")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    for k in kinds:
        if k not in _OPENAI_TYPES:
            problems.append(f"{where}: type {k!r} is not supported")
    if "object" in kinds:
        props = node.get("properties", {})
        counter[0] += len(props)
        if node.get("additionalProperties") is not False:
            problems.append(f"{where}: additionalProperties must be false")
        if sorted(node.get("required", [])) != sorted(props):
            problems.append(f"{where}: every property must be required")
        for name, sub in props.items():
            _openai(sub, f"{where}.{name}", depth + 1, problems, counter)
    if "array" in kinds:
        if "items" not in node:
            problems.append(f"{where}: an array needs items")
        else:
            _openai(node["items"], f"{where}[]", depth + 1, problems, counter)
    for n, sub in enumerate(node.get("anyOf", [])):
        _openai(sub, f"{where}|{n}", depth + 1, problems, counter)


def anthropic_problems(name: str, schema: dict[str, Any]) -> list[str]:
    """Every way a tool breaks Anthropic's tool rules (empty: accepted)."""
    problems = []
    if not _NAME.match(name):
        problems.append(f"name {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$")
    if schema.get("type") != "object":
        problems.append("input_schema: root type must be object")
    return problems


def gemini_problems(schema: Any, where: str = "$") -> list[str]:
    """Every way `schema` breaks Gemini's function-declaration subset (one `type` per schema, no `const`)."""
    problems: list[str] = []
    if not isinstance(schema, dict):
        return [f"{where}: a schema must be an object"]
    if isinstance(schema.get("type"), list):
        problems.append(f"{where}: type must be one string, not a list")
    if schema.get("type") == "null":
        problems.append(f"{where}: type null is not supported; use nullable")
    if "const" in schema:
        problems.append(f"{where}: const is not supported")
    if None in schema.get("enum", []):
        problems.append(f"{where}: null in enum is not supported")
    for name, sub in schema.get("properties", {}).items():
        problems += gemini_problems(sub, f"{where}.{name}")
    if "items" in schema:
        problems += gemini_problems(schema["items"], f"{where}[]")
    for n, sub in enumerate(schema.get("anyOf", [])):
        problems += gemini_problems(sub, f"{where}|{n}")
    return problems
