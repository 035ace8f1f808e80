"""Validation of a tool call's JSON arguments into a typed Struct, with errors a model can act on."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from vtcode.protocol.errors import ToolError

ArgsT = TypeVar("ArgsT", bound=msgspec.Struct)


def parse_arguments(arguments: dict[str, Any], schema: type[ArgsT]) -> ArgsT:
    """Convert `arguments` into `schema`; a missing, unknown or mistyped field is a `ToolError`."""
    try:
        # Lax mode: models often send numbers as strings ("offset": "20"); the value is still checked.
        return msgspec.convert(arguments, schema, strict=False)
    except msgspec.ValidationError as exc:
        raise ToolError(f"invalid arguments: {exc}") from None
