"""Tool input schemas from MCP servers rewritten into the subset every provider accepts.

Servers publish whatever JSON Schema their framework emits (`$ref`/`$defs`, `oneOf`, `allOf`, formats,
ranges, free-form objects); one schema a provider rejects fails every request of the session. The
normal form is the OpenAI strict-mode subset, which Anthropic's and the Chat wire's rules also accept:

- `$ref` to `#/$defs/...` or `#/definitions/...` is inlined (a recursive one becomes an empty object);
- `oneOf` becomes `anyOf`, `allOf` is merged; only `type`, `properties`, `required`,
  `additionalProperties`, `items`, `enum`, `const`, `anyOf` and `description` are kept; dropped
  constraints (`minimum`, `format`, `default`, ...) are appended to the description for the model;
- every object lists all its properties as required and sets `additionalProperties: false`; a property
  that was optional becomes nullable, and its path is returned so the caller can drop a `null` the model
  sends for it before the server sees it;
- a value without a type becomes a string, number, boolean or null.

Keys come out in one fixed order, so the same server schema always gives the same bytes (the prompt
cache prefix depends on it).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

Path = tuple[str, ...]

_KEPT_ORDER = ("type", "description", "enum", "const", "anyOf", "items", "properties", "required")
_NOTED = (
    "format",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "default",
    "examples",
)
_ANY_VALUE: tuple[dict[str, Any], ...] = (
    {"type": "string"},
    {"type": "number"},
    {"type": "boolean"},
    {"type": "null"},
)
_MAX_NOTE = 200


class NormalisedSchema(msgspec.Struct, frozen=True):
    """A provider-safe schema and the property paths whose `null` means "not given"."""

    schema: dict[str, Any]
    optional: frozenset[Path]


def normalise_schema(schema: Mapping[str, Any]) -> NormalisedSchema:
    """The strict-subset form of a tool's `inputSchema` (always an object at the root)."""
    defs: dict[str, Any] = {}
    for key in ("definitions", "$defs"):
        found = schema.get(key)
        if isinstance(found, Mapping):
            defs.update(found)
    optional: set[Path] = set()
    root = _node(schema, defs, (), optional, path=())
    if root.get("type") != "object":
        root = _empty_object(root.get("description", ""))
        optional.clear()
    return NormalisedSchema(schema=root, optional=frozenset(optional))


def drop_unset(arguments: Mapping[str, Any], optional: frozenset[Path]) -> dict[str, Any]:
    """`arguments` without `null` values at optional paths (the model's way of leaving them out)."""
    return _drop(arguments, optional, ())


def _drop(value: Mapping[str, Any], optional: frozenset[Path], path: Path) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key, item in value.items():
        here = (*path, key)
        if item is None and here in optional:
            continue
        kept[key] = _drop(item, optional, here) if isinstance(item, Mapping) else item
    return kept


def _empty_object(description: str = "") -> dict[str, Any]:
    node: dict[str, Any] = {"type": "object"}
    if description:
        node["description"] = description
    node.update(properties={}, required=[], additionalProperties=False)
    return node


def _resolve(node: Mapping[str, Any], defs: Mapping[str, Any], stack: tuple[str, ...]) -> tuple[Any, str]:
    """The definition a `$ref` names and its name; ("", "") when it cannot be inlined."""
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return node, ""
    for prefix in ("#/$defs/", "#/definitions/"):
        if ref.startswith(prefix):
            name = ref[len(prefix) :]
            target = defs.get(name)
            if isinstance(target, Mapping) and name not in stack:
                # Sibling keywords of a $ref (a description) apply too.
                merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
                return merged, name
    return None, ""


def _node(
    raw: Any, defs: Mapping[str, Any], stack: tuple[str, ...], optional: set[Path], *, path: Path
) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        # `true` / `{}`-like schemas: any value.
        return {"anyOf": [dict(v) for v in _ANY_VALUE]}
    resolved, name = _resolve(raw, defs, stack)
    if resolved is None:
        return _empty_object(str(raw.get("description", "")))
    if name:
        stack = (*stack, name)
    node: Mapping[str, Any] = _merge_all_of(resolved, defs, stack)
    notes = _notes(node)
    description = str(node.get("description") or "")
    if notes:
        description = f"{description} ({notes})" if description else f"({notes})"
    out: dict[str, Any] = {}
    variants = node.get("anyOf", node.get("oneOf"))
    kind = node.get("type")
    if isinstance(variants, Sequence) and not isinstance(variants, str) and variants and kind is None:
        out["anyOf"] = [_node(v, defs, stack, set(), path=path) for v in variants]
    elif kind is None and "enum" not in node and "const" not in node and "properties" not in node:
        out["anyOf"] = [dict(v) for v in _ANY_VALUE]
    else:
        if kind is None:
            kind = "object" if "properties" in node else _enum_type(node)
        if kind is not None:
            out["type"] = kind
    if "enum" in node and isinstance(node["enum"], Sequence):
        out["enum"] = list(node["enum"])
    if "const" in node:
        out["const"] = node["const"]
    types = out.get("type")
    is_object = types == "object" or (isinstance(types, list) and "object" in types)
    is_array = types == "array" or (isinstance(types, list) and "array" in types)
    if is_array:
        out["items"] = _node(node.get("items", {}), defs, stack, set(), path=path)
    if is_object:
        _object(out, node, defs, stack, optional, path)
    if description:
        out["description"] = description[:1024]
    return {key: out[key] for key in (*_KEPT_ORDER, "additionalProperties") if key in out}


def _object(  # noqa: PLR0917 - the walk's state, passed down as _node passes it
    out: dict[str, Any],
    node: Mapping[str, Any],
    defs: Mapping[str, Any],
    stack: tuple[str, ...],
    optional: set[Path],
    path: Path,
) -> None:
    props = node.get("properties")
    props = props if isinstance(props, Mapping) else {}
    required_raw = node.get("required")
    required = set(required_raw) if isinstance(required_raw, Sequence) else set()
    properties: dict[str, Any] = {}
    for key, sub in props.items():
        child = _node(sub, defs, stack, optional, path=(*path, key))
        if key not in required:
            child = _nullable(child)
            optional.add((*path, key))
        properties[key] = child
    out["properties"] = properties
    out["required"] = list(properties)
    out["additionalProperties"] = False


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """`node` that also accepts `null`."""
    if "anyOf" in node:
        if {"type": "null"} not in node["anyOf"]:
            node = {**node, "anyOf": [*node["anyOf"], {"type": "null"}]}
        return node
    kind = node.get("type")
    if isinstance(kind, str) and kind != "null":
        node = {**node, "type": [kind, "null"]}
    elif isinstance(kind, list) and "null" not in kind:
        node = {**node, "type": [*kind, "null"]}
    if "enum" in node and None not in node["enum"]:
        node = {**node, "enum": [*node["enum"], None]}
    return {key: node[key] for key in (*_KEPT_ORDER, "additionalProperties") if key in node}


def _merge_all_of(
    node: Mapping[str, Any], defs: Mapping[str, Any], stack: tuple[str, ...]
) -> Mapping[str, Any]:
    parts = node.get("allOf")
    if not isinstance(parts, Sequence) or isinstance(parts, str):
        return node
    merged: dict[str, Any] = {k: v for k, v in node.items() if k != "allOf"}
    for part in parts:
        resolved, _ = _resolve(part, defs, stack) if isinstance(part, Mapping) else (None, "")
        if not isinstance(resolved, Mapping):
            continue
        for key, value in resolved.items():
            if key == "properties" and isinstance(value, Mapping):
                merged["properties"] = {**merged.get("properties", {}), **value}
            elif key == "required" and isinstance(value, Sequence):
                merged["required"] = [*merged.get("required", []), *value]
            else:
                merged.setdefault(key, value)
    return merged


def _enum_type(node: Mapping[str, Any]) -> str | None:
    values = node.get("enum", [node["const"]] if "const" in node else [])
    kinds = {type(v) for v in values}
    if kinds <= {str}:
        return "string"
    if kinds <= {bool}:
        return "boolean"
    if kinds <= {int}:
        return "integer"
    if kinds <= {int, float}:
        return "number"
    return None


def _notes(node: Mapping[str, Any]) -> str:
    shown = [f"{key} {json.dumps(node[key], ensure_ascii=False)}" for key in _NOTED if key in node]
    text = ", ".join(shown)
    return text if len(text) <= _MAX_NOTE else text[: _MAX_NOTE - 1] + "…"


def gemini_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`schema` in Gemini's subset: one `type` per schema (a list is rejected), `nullable` for null.

    `{"type": ["string", "null"]}` becomes `{"type": "string", "nullable": true}`; several non-null types
    become `anyOf`; `null` in `enum` or `anyOf` becomes `nullable`; `const` becomes a one-value `enum`.
    """
    out: dict[str, Any] = {}
    nullable = False
    for key, value in schema.items():
        if key == "type" and isinstance(value, list):
            kinds = [k for k in value if k != "null"]
            nullable = nullable or len(kinds) < len(value)
            if len(kinds) == 1:
                out["type"] = kinds[0]
            elif kinds:
                out["anyOf"] = [{"type": k} for k in kinds]
        elif key == "type" and value == "null":
            nullable = True
        elif key == "enum" and isinstance(value, list):
            nullable = nullable or None in value
            out["enum"] = [v for v in value if v is not None]
        elif key == "const":
            out["enum"] = [value]
        elif key == "anyOf" and isinstance(value, list):
            variants = [gemini_schema(v) for v in value if v != {"type": "null"}]
            nullable = nullable or len(variants) < len(value)
            out["anyOf"] = variants
        elif key == "properties" and isinstance(value, Mapping):
            out["properties"] = {name: gemini_schema(sub) for name, sub in value.items()}
        elif key == "items" and isinstance(value, Mapping):
            out["items"] = gemini_schema(value)
        else:
            out[key] = value
    if nullable:
        out["nullable"] = True
    return out
