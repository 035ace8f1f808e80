"""Structured output: `Options(output_type=T)` makes every final answer a JSON value of type `T`.

The runtime states the schema in each user message, checks the answer and re-asks on invalid output
before the turn fails with kind `invalid_output` (`runtime.structured_output`, as `vtcode exec
--output-schema`). The SDK adds only the schema of `T` and the conversion of the checked answer into a `T`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from vtcode.protocol.errors import ConfigError
from vtcode.sdk.schema import root_schema

OutputType = type[Any] | Mapping[str, Any]
"""A type msgspec can decode into (Struct, dataclass, TypedDict, list[...], ...) or a JSON Schema dict."""


@dataclass(frozen=True)
class Output:
    """An output type with its JSON Schema."""

    schema: dict[str, Any]
    # None when the program gave a JSON Schema: the answer stays the decoded JSON value.
    kind: type[Any] | None

    def decode(self, answer: str) -> Any:
        """The answer as the output type (raises `ValueError` for an answer that is not one)."""
        from vtcode.runtime.structured_output import parse_answer

        value = parse_answer(answer)
        if self.kind is None:
            return value
        try:
            return msgspec.convert(value, self.kind)
        except msgspec.ValidationError as exc:
            raise ValueError(str(exc)) from exc


def output(spec: OutputType) -> Output:
    """The `Output` for `spec` (raises `ConfigError` for a type without a JSON Schema)."""
    if isinstance(spec, Mapping):
        return Output(schema=dict(spec), kind=None)
    try:
        schema = root_schema(msgspec.json.schema(spec))
    except TypeError as exc:
        raise ConfigError(f"output_type {spec!r} has no JSON Schema: {exc}") from exc
    return Output(schema=schema, kind=spec)


def turn_schema(expected: Output | None) -> dict[str, Any] | None:
    """The checked JSON Schema a turn holds its answer to (raises `UsageError` for an unusable one)."""
    if expected is None:
        return None
    from vtcode.runtime.structured_output import check_schema

    return dict(check_schema(expected.schema, "output_type"))
