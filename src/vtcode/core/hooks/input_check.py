"""A hook's `updatedInput` checked against the tool's parameter schema before it replaces a call's input.

Only the subset our tool schemas use: an object, its required keys, the JSON type of each known key,
and no unknown keys when the schema says `additionalProperties: false`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def input_problem(schema: Mapping[str, Any], value: object) -> str | None:
    """Why `value` does not fit `schema` (a sentence naming the key), or None when it does."""
    if not isinstance(value, dict):
        return "the input must be a JSON object"
    properties: Mapping[str, Any] = schema.get("properties") or {}
    for key in schema.get("required") or ():
        if key not in value:
            return f"the required key `{key}` is missing"
    for key, item in value.items():
        spec = properties.get(key)
        if spec is None:
            if schema.get("additionalProperties") is False:
                return f"`{key}` is not a parameter of this tool"
            continue
        if not _fits(item, spec):
            return f"`{key}` must be {spec.get('type')}, got {type(item).__name__}"
    return None


def _fits(value: object, spec: Mapping[str, Any]) -> bool:
    wanted = spec.get("type")
    if wanted is None:
        return True
    names = wanted if isinstance(wanted, list) else [wanted]
    for name in names:
        types = _TYPES.get(str(name))
        if types is None:
            return True
        if isinstance(value, bool) and bool not in types:
            continue
        if isinstance(value, types):
            return True
    return False
