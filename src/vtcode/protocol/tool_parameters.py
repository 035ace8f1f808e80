"""A built-in tool's JSON Schema `parameters`, generated from the msgspec Struct that checks its arguments.

The Struct is the one declaration of a tool's parameters: what the model is told cannot drift from what
`parse_arguments` accepts. What it says:

- a field without a default is required; `X | None` advertises `X`;
- `str`, `int`, `float`, `bool` are `string`, `integer`, `number`, `boolean`; a `Literal` is an `enum`;
  a `list[T]` or `tuple[T, ...]` is an `array` of `items`; a nested Struct is a closed object;
- `msgspec.Meta` gives `description`, and its checks `ge`, `le`, `min_length` are advertised as
  `minimum`, `maximum`, `minLength`;
- `Meta(extra_json_schema=...)` is advertised but not checked (a `default`, a bound the tool clamps
  instead of refusing, a `type` wider than the model should send); as in msgspec, it wins over what
  the type gives;
- `Annotated[T, NOT_ADVERTISED]` is accepted but left out of the schema (an alias kept for old callers).

Keys come out in one fixed order: the bytes are part of every request and of the providers' prompt
cache prefix (`tests/tools/test_builtin_tool_schemas.py` pins them).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

import msgspec

from vtcode.protocol.model import object_parameters


class NotAdvertised:
    """The marker of an argument a tool accepts but does not tell the model of."""

    def __repr__(self) -> str:
        return "NOT_ADVERTISED"


NOT_ADVERTISED: Final = NotAdvertised()

_ORDER = (
    "type",
    "enum",
    "minLength",
    "minimum",
    "maximum",
    "default",
    "description",
    "items",
    "properties",
    "required",
    "additionalProperties",
)
_SCALARS: Mapping[object, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}
# The `Meta` checks msgspec enforces that the schema states.
_CHECKS = {"ge": "minimum", "le": "maximum", "min_length": "minLength"}
# The rest of `Meta`, not written yet: refused, so no check or text is silently left out of the schema.
_NOT_WRITTEN = ("gt", "lt", "multiple_of", "pattern", "max_length", "tz", "title", "examples")


def tool_parameters(
    args: type[msgspec.Struct], *, extra_json_schema: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The closed-object JSON Schema of `args`'s advertised fields.

    `extra_json_schema` adds keys to named fields like their `Meta(extra_json_schema=...)`, for values
    known only at run time (the names of the skills a session offers).
    """
    extras = extra_json_schema or {}
    unknown = set(extras) - set(args.__struct_fields__)
    if unknown:
        raise TypeError(f"{args.__name__} has no field {sorted(unknown)}")
    return _object(args, extras)


def _object(struct: type[msgspec.Struct], extras: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    if not struct.__struct_config__.forbid_unknown_fields:
        # `additionalProperties: false` would promise the model a check the Struct does not make.
        raise TypeError(f"{struct.__name__} must forbid unknown fields to be a tool's parameters")
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field in msgspec.structs.fields(struct):
        metas, hint = _unwrapped(field.type)
        if any(isinstance(meta, NotAdvertised) for meta in metas):
            if field.required:
                raise TypeError(f"{struct.__name__}.{field.name} is required, so it must be advertised")
            continue
        schema = _value(hint, [meta for meta in metas if isinstance(meta, msgspec.Meta)])
        schema.update(extras.get(field.name, {}))
        properties[field.encode_name] = _ordered(schema)
        if field.required:
            required.append(field.encode_name)
    return object_parameters(properties, required=required)


def _unwrapped(hint: Any) -> tuple[list[object], Any]:
    """The `Annotated` metadata around `hint` (outermost first) and the type inside, `None` removed."""
    metas: list[object] = []
    while True:
        origin = typing.get_origin(hint)
        if origin is Annotated:
            hint, *found = typing.get_args(hint)
            metas.extend(found)
        elif origin in (typing.Union, types.UnionType):
            kept = [arm for arm in typing.get_args(hint) if arm is not type(None)]
            if len(kept) != 1:
                raise TypeError(f"a tool parameter cannot be a union: {hint!r}")
            hint = kept[0]
        else:
            return metas, hint


def _value(hint: Any, metas: list[msgspec.Meta]) -> dict[str, Any]:
    schema = _typed(hint)
    overrides: dict[str, Any] = {}
    for meta in metas:
        for name in _NOT_WRITTEN:
            if getattr(meta, name) is not None:
                raise TypeError(f"msgspec.Meta({name}=...) is not written to a tool's schema yet")
        for name, key in _CHECKS.items():
            if getattr(meta, name) is not None:
                schema[key] = getattr(meta, name)
        if meta.description is not None:
            schema["description"] = meta.description
        overrides.update(meta.extra_json_schema or {})
    if "minLength" in schema and schema.get("type") != "string":
        raise TypeError(f"min_length is advertised for strings only, not {hint!r}")
    schema.update(overrides)
    return schema


def _typed(hint: Any) -> dict[str, Any]:
    """The schema `hint`'s type alone gives."""
    if hint is Any:
        return {}
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    origin = typing.get_origin(hint)
    if origin is Literal:
        values = list(typing.get_args(hint))
        kinds = {_SCALARS.get(type(value)) for value in values}
        if len(kinds) != 1 or None in kinds:
            raise TypeError(f"a tool parameter's Literal must hold values of one JSON type: {hint!r}")
        return {"type": kinds.pop(), "enum": values}
    if origin in (list, tuple):
        item = typing.get_args(hint)
        if not item or (origin is tuple and (len(item) != 2 or item[1] is not Ellipsis)):
            raise TypeError(f"a tool parameter's sequence must be list[T] or tuple[T, ...]: {hint!r}")
        metas, inner = _unwrapped(item[0])
        items = _value(inner, [meta for meta in metas if isinstance(meta, msgspec.Meta)])
        return {"type": "array", "items": _ordered(items)}
    if isinstance(hint, type) and issubclass(hint, msgspec.Struct):
        return _object(hint, {})
    raise TypeError(f"a tool parameter cannot be of type {hint!r}")


def _ordered(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with its keys in the one fixed order (unknown keys after, as given)."""
    known = {key: schema[key] for key in _ORDER if key in schema}
    return known | {key: value for key, value in schema.items() if key not in known}
