"""A tool's JSON Schema from a Python function: its type hints, `Annotated` descriptions and docstring.

The parameters become one msgspec Struct, so msgspec both writes the schema (Structs, dataclasses,
TypedDicts, `Literal`, `Optional`, lists, with `$defs`) and validates and converts the model's arguments
into those types before the function is called. What the model is sent is the provider-safe normal form
MCP tools get too (`core.tool_schema`); `FunctionSchema.json_schema` keeps msgspec's own, `$defs` and all.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec

from vtcode.core.tool_schema import Path as SchemaPath
from vtcode.core.tool_schema import drop_unset, normalise_schema

# Google-style `Args:` entries: `name: text` or `name (type): text`, continued on deeper-indented lines.
_ARG_LINE = re.compile(r"^(\s*)(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_SECTION = re.compile(r"^\s*(Args|Arguments|Parameters|Returns|Raises|Yields|Examples?|Notes?)\s*:\s*$")


class SchemaError(TypeError):
    """A function that cannot be offered as a tool (an unsupported parameter type or kind)."""


@dataclass(frozen=True)
class FunctionSchema:
    """What the model is told about a function, and how its arguments are checked."""

    name: str
    description: str
    # msgspec's schema of the parameters, `$defs` kept.
    json_schema: dict[str, Any]
    # The provider-safe form sent to the model (`$ref` inlined, optional values nullable).
    model_schema: dict[str, Any]
    optional: frozenset[SchemaPath]
    arguments: type[msgspec.Struct]
    # Whether the first parameter is a `ToolContext` (not part of the schema).
    takes_context: bool

    def convert(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The model's JSON arguments as the function's typed keyword arguments (raises `ValidationError`)."""
        converted = msgspec.convert(drop_unset(arguments, self.optional), self.arguments)
        return {name: getattr(converted, name) for name in self.arguments.__struct_fields__}


def function_schema(
    fn: Callable[..., Any], *, name: str | None = None, description: str | None = None, context: type
) -> FunctionSchema:
    """The schema of `fn`'s parameters; a first parameter annotated with `context` is left out."""
    tool_name = name or fn.__name__
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except NameError as exc:
        raise SchemaError(f"tool {tool_name!r}: cannot resolve a type hint: {exc}") from exc
    summary, documented = parse_docstring(inspect.getdoc(fn) or "")
    parameters = list(inspect.signature(fn).parameters.values())
    takes_context = bool(parameters) and hints.get(parameters[0].name) is context
    if takes_context:
        parameters = parameters[1:]
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for param in parameters:
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD, param.POSITIONAL_ONLY):
            raise SchemaError(f"tool {tool_name!r}: parameter {param.name!r} must be a named parameter")
        hint = _described(hints.get(param.name, Any), documented.get(param.name))
        if param.default is inspect.Parameter.empty:
            fields.append((param.name, hint))
        else:
            fields.append((param.name, hint, param.default))
    struct = msgspec.defstruct(f"{tool_name}_arguments", fields, kw_only=True, forbid_unknown_fields=True)
    try:
        raw = root_schema(msgspec.json.schema(struct))
    except TypeError as exc:
        raise SchemaError(f"tool {tool_name!r}: {exc}") from exc
    normal = normalise_schema(raw)
    return FunctionSchema(
        name=tool_name,
        description=description if description is not None else summary,
        json_schema=raw,
        model_schema=normal.schema,
        optional=normal.optional,
        arguments=struct,
        takes_context=takes_context,
    )


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """The text before any section, and each parameter's description from an `Args:` section."""
    summary: list[str] = []
    params: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    base_indent = -1
    for line in doc.splitlines():
        heading = _SECTION.match(line)
        if heading:
            section, current, base_indent = heading.group(1), None, -1
            continue
        if section is None:
            summary.append(line)
            continue
        if section not in ("Args", "Arguments", "Parameters"):
            continue
        match = _ARG_LINE.match(line)
        indent = len(line) - len(line.lstrip())
        if match and (base_indent < 0 or indent <= base_indent):
            base_indent = indent
            current = match.group(2).lstrip("*")
            params[current] = match.group(3).strip()
        elif current is not None and line.strip():
            params[current] = f"{params[current]} {line.strip()}".strip()
    return "\n".join(summary).strip(), params


def _described(hint: Any, documented: str | None) -> Any:
    """`hint` with its description as msgspec reads it: `Annotated[T, "text"]` or the docstring's."""
    if typing.get_origin(hint) is Annotated:
        base, *extras = typing.get_args(hint)
        metas = [e for e in extras if isinstance(e, msgspec.Meta)]
        texts = [e for e in extras if isinstance(e, str)]
        if texts and not any(m.description for m in metas):
            metas.append(msgspec.Meta(description=" ".join(texts)))
        if metas:
            return Annotated[(base, *metas)]
        hint = base
    if documented:
        return Annotated[hint, msgspec.Meta(description=documented)]
    return hint


def root_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """msgspec's `{"$ref": ..., "$defs": ...}` with the referenced object as the root."""
    defs = dict(schema.get("$defs", {}))
    ref = schema.get("$ref", "")
    top = defs.pop(ref.rsplit("/", 1)[-1], None) if isinstance(ref, str) else None
    if not isinstance(top, dict):
        return schema
    top.pop("title", None)
    root: dict[str, Any] = dict(top)
    if defs:
        root["$defs"] = defs
    return root
