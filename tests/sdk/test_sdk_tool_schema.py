"""A function's parameters become the JSON Schema the model is offered, from hints and docstring."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated, Literal, TypedDict

import msgspec
import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


class Finding(msgspec.Struct):
    """One problem in a diff."""

    path: str
    line: int


@dataclasses.dataclass
class Window:
    """A range of lines."""

    start: int
    end: int


class Labels(TypedDict):
    """Labels to set."""

    name: str
    weight: float


@vt.tool
def review(
    *,
    verdict: Literal["approve", "request_changes"],
    findings: list[Finding],
    summary: Annotated[str, "one paragraph for the author"],
    window: Window | None = None,
    labels: Labels | None = None,
    strict: bool = False,
    score: float = 0.5,
    tags: list[str] | None = None,
) -> str:
    """File a review of the current diff.

    Args:
        verdict: what the reviewer decides
        findings: the problems found,
            most important first
        strict (bool): fail on warnings too
    """
    return verdict


def test_the_schema_comes_from_type_hints_annotated_text_and_the_docstring() -> None:
    schema = review.schema.json_schema
    assert review.spec.name == "review"
    assert review.spec.description == "File a review of the current diff."
    assert schema["required"] == ["verdict", "findings", "summary"]
    props = schema["properties"]
    assert props["verdict"] == {
        "enum": ["approve", "request_changes"],
        "description": "what the reviewer decides",
    }
    assert props["findings"] == {
        "type": "array",
        "items": {"$ref": "#/$defs/Finding"},
        "description": "the problems found, most important first",
    }
    assert props["summary"] == {"type": "string", "description": "one paragraph for the author"}
    assert props["strict"] == {"type": "boolean", "default": False, "description": "fail on warnings too"}
    assert props["score"] == {"type": "number", "default": 0.5}
    assert props["tags"] == {
        "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
        "default": None,
    }
    # Nested types keep their definitions (and docstrings) in `$defs`.
    assert set(schema["$defs"]) == {"Finding", "Window", "Labels"}
    assert schema["$defs"]["Finding"]["description"] == "One problem in a diff."
    assert schema["$defs"]["Labels"]["required"] == ["name", "weight"]
    assert schema["$defs"]["Window"]["properties"] == {
        "start": {"type": "integer"},
        "end": {"type": "integer"},
    }


def test_the_model_is_offered_the_provider_safe_form_without_refs() -> None:
    sent = review.spec.parameters
    assert "$defs" not in sent
    assert sent["additionalProperties"] is False
    # Every property is listed as required; the optional ones take null.
    assert sent["required"] == list(sent["properties"])
    assert sent["properties"]["findings"]["items"]["properties"] == {
        "path": {"type": "string"},
        "line": {"type": "integer"},
    }


def test_arguments_are_converted_into_the_declared_types() -> None:
    converted = review.schema.convert(
        {
            "verdict": "approve",
            "findings": [{"path": "a.py", "line": 3}],
            "summary": "ok",
            "window": {"start": 1, "end": 9},
            "labels": {"name": "bug", "weight": 1.0},
            "tags": None,
        }
    )
    assert converted["findings"] == [Finding(path="a.py", line=3)]
    assert converted["window"] == Window(start=1, end=9)
    assert converted["labels"] == {"name": "bug", "weight": 1.0}
    # `null` for an optional parameter means "not given": the default applies.
    assert converted["tags"] is None
    assert (converted["strict"], converted["score"]) == (False, 0.5)
    with pytest.raises(msgspec.ValidationError, match="verdict"):
        review.schema.convert({"verdict": "maybe", "findings": [], "summary": ""})


def test_a_context_first_parameter_is_not_part_of_the_schema() -> None:
    @vt.tool(name="where", read_only=True)
    async def where_am_i(ctx: vt.ToolContext, detail: bool) -> str:
        """Tell the session id."""
        return ctx.session_id

    assert where_am_i.schema.takes_context
    assert list(where_am_i.schema.json_schema["properties"]) == ["detail"]
    assert (where_am_i.spec.name, where_am_i.kind) == ("where", "read")


def test_a_function_taking_star_args_is_refused_with_a_clear_error() -> None:
    def spread(*names: str) -> str:
        """Join."""
        return "".join(names)

    with pytest.raises(vt.SchemaError, match="'names' must be a named parameter"):
        vt.tool(spread)


async def test_the_offered_schema_and_the_converted_arguments_cross_both_transports(
    tmp_path: Path, transport: TransportName
) -> None:
    # Over the child the schema travels in the session's setup and the arguments back in a callback:
    # the model must be offered exactly the schema built here, and the function get the declared types.
    got: list[tuple[str, list[Finding], Window | None]] = []

    @vt.tool(name="review")
    def file_review(
        verdict: Literal["approve", "request_changes"], findings: list[Finding], window: Window | None = None
    ) -> str:
        """File a review of the current diff."""
        got.append((verdict, findings, window))
        return "filed"

    arguments = {
        "verdict": "approve",
        "findings": [{"path": "a.py", "line": 3}],
        "window": {"start": 1, "end": 9},
    }
    script = [
        Reply(tool_calls=(ScriptToolCall("review", json.dumps(arguments), id="r1"),)),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        options = sdk_options(tmp_path, server, tools=[file_review], transport=transport)
        async with await vt.Session.open(options) as s:
            assert (await s.run("review it")).final_text == "done"
    offered = [t["function"] for t in server.requests[0].json()["tools"] if t["function"]["name"] == "review"]
    assert offered == [
        {
            "name": "review",
            "description": "File a review of the current diff.",
            "parameters": file_review.spec.parameters,
        }
    ]
    assert got == [("approve", [Finding(path="a.py", line=3)], Window(start=1, end=9))]
