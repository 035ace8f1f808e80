"""A tool's JSON Schema parameters generated from the one Struct that checks its arguments."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
import pytest

from vtcode.protocol.tool_parameters import NOT_ADVERTISED, tool_parameters

Color = Literal["red", "green"]


class _Point(msgspec.Struct, forbid_unknown_fields=True):
    x: Annotated[int, msgspec.Meta(ge=0, description="Across.")]
    label: str = ""


class _Args(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    query: Annotated[str | None, msgspec.Meta(description="What to find.")] = None
    name: Annotated[str, msgspec.Meta(min_length=1, description="Who.")]
    color: Color = "red"
    count: Annotated[int, msgspec.Meta(ge=1, le=9, description="How many.")] | None = None
    points: Annotated[list[_Point], msgspec.Meta(description="Where.")]
    tags: tuple[str, ...] = ()
    # Clamped by the tool rather than refused: advertised only.
    wait: Annotated[
        float | None,
        msgspec.Meta(
            description="Seconds.",
            extra_json_schema={"default": 5, "maximum": 60, "type": "integer", "minimum": 1},
        ),
    ] = None
    legacy_wait: Annotated[float | None, NOT_ADVERTISED] = None
    checked_by_hand: Annotated[Any, msgspec.Meta(extra_json_schema={"type": "integer"})] = None


def test_the_schema_is_the_structs_advertised_fields_in_one_key_order() -> None:
    point = {
        "type": "object",
        "properties": {
            "x": {"type": "integer", "minimum": 0, "description": "Across."},
            "label": {"type": "string"},
        },
        "required": ["x"],
        "additionalProperties": False,
    }
    expected = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to find."},
            "name": {"type": "string", "minLength": 1, "description": "Who."},
            "color": {"type": "string", "enum": ["red", "green"]},
            "count": {"type": "integer", "minimum": 1, "maximum": 9, "description": "How many."},
            "points": {"type": "array", "description": "Where.", "items": point},
            "tags": {"type": "array", "items": {"type": "string"}},
            "wait": {"type": "integer", "minimum": 1, "maximum": 60, "default": 5, "description": "Seconds."},
            "checked_by_hand": {"type": "integer"},
        },
        "required": ["name", "points"],
        "additionalProperties": False,
    }
    # Bytes, not dicts: key order is part of every request (and of the providers' prompt caches).
    assert msgspec.json.encode(tool_parameters(_Args)) == msgspec.json.encode(expected)


def test_the_hidden_alias_and_the_lenient_float_are_accepted_though_advertised_otherwise() -> None:
    parsed = msgspec.convert({"name": "a", "points": [], "wait": 2.5, "legacy_wait": 3}, _Args)
    assert (parsed.wait, parsed.legacy_wait) == (2.5, 3.0)
    assert "legacy_wait" not in tool_parameters(_Args)["properties"]


def test_values_known_at_run_time_are_added_to_the_named_field() -> None:
    schema = tool_parameters(_Args, extra_json_schema={"name": {"enum": ["a", "b"]}})
    assert list(schema["properties"]["name"].items()) == [
        ("type", "string"),
        ("enum", ["a", "b"]),
        ("minLength", 1),
        ("description", "Who."),
    ]
    with pytest.raises(TypeError, match="no field"):
        tool_parameters(_Args, extra_json_schema={"nmae": {"enum": []}})


class _Open(msgspec.Struct):
    a: str


class _Unwritten(msgspec.Struct, forbid_unknown_fields=True):
    a: Annotated[str, msgspec.Meta(pattern="^x")]


class _Union(msgspec.Struct, forbid_unknown_fields=True):
    a: int | str


class _HiddenRequired(msgspec.Struct, forbid_unknown_fields=True):
    a: Annotated[str, NOT_ADVERTISED]


@pytest.mark.parametrize(
    ("struct", "problem"),
    [
        (_Open, "must forbid unknown fields"),
        (_Unwritten, "pattern"),
        (_Union, "union"),
        (_HiddenRequired, "must be advertised"),
    ],
)
def test_a_struct_whose_checks_the_schema_cannot_state_is_refused(
    struct: type[msgspec.Struct], problem: str
) -> None:
    with pytest.raises(TypeError, match=problem):
        tool_parameters(struct)
