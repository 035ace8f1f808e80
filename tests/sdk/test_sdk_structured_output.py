"""`Options(output_type=T)`: the schema reaches the model, invalid answers are re-asked, `output` is a T."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import msgspec

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


class Review(msgspec.Struct):
    """A verdict on a diff."""

    verdict: Literal["approve", "request_changes"]
    findings: list[str]


async def test_an_invalid_answer_is_reasked_and_the_valid_one_comes_back_typed(
    tmp_path: Path, transport: TransportName
) -> None:
    valid = json.dumps({"verdict": "request_changes", "findings": ["no tests"]})
    script = [
        Reply(text="looks fine to me"),
        Reply(text='{"verdict": "maybe", "findings": []}'),
        Reply(text=valid),
    ]
    with server_for("anthropic", script) as server:
        opts = sdk_options(tmp_path, server, wire="anthropic", output_type=Review, transport=transport)
        async with await vt.Session.open(opts) as s:
            result = await s.run("review the diff")
        bodies = [json.dumps(r.json()["messages"]) for r in server.requests]
    assert result.status == "completed"
    assert result.output == Review(verdict="request_changes", findings=["no tests"])
    assert "request_changes" in bodies[0]
    assert "<output_schema>" in bodies[0]
    assert "does not validate against the output schema" in bodies[1]
    assert len(bodies) == 3


async def test_an_answer_that_never_validates_fails_the_turn_with_its_raw_text(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [Reply(text="prose 1"), Reply(text="prose 2"), Reply(text="prose 3")]
    with server_for("chat", script) as server:
        schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
        async with await vt.Session.open(
            sdk_options(tmp_path, server, output_type=schema, transport=transport)
        ) as s:
            result = await s.run("answer")
            server.add(Reply(text='{"ok": true}'))
            second = await s.run("again")
    assert result.status == "failed"
    assert result.error is not None
    assert result.error.kind == "invalid_output"
    assert result.final_text == "prose 3"
    assert result.output is None
    # A JSON Schema given as a dict: the output is the JSON value.
    assert second.output == {"ok": True}
