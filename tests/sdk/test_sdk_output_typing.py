"""`output_type` per turn: it overrides the session's for one turn, reaches the model as a schema, and
`mypy --strict` sees `(await turn.result()).output` as the program's own type (and passes the examples;
`test_sdk_types_under_pyright` checks both with pyright)."""

from __future__ import annotations

import json
import subprocess
import sys
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


class Count(msgspec.Struct):
    """A number of things."""

    count: int


TYPED_PROGRAM = """\
from typing import Literal

import msgspec

import vtcode.sdk as vt


class Review(msgspec.Struct):
    verdict: Literal["approve", "request_changes"]
    findings: list[str]


async def main(session: vt.Session) -> None:
    turn = await session.start("review your diff", output_type=Review)
    reveal_type((await turn.result()).output)
    result = await session.run("review again", output_type=Review)
    reveal_type(result.output)
    wrong: str = result.output
    with vt.SyncSession.open(vt.Options()) as sync:
        reveal_type(sync.run("review", output_type=Review).output)
"""


def _last_user_text(body: dict[str, object]) -> str:
    messages = body["messages"]
    assert isinstance(messages, list)
    return str([m for m in messages if m["role"] == "user"][-1]["content"])


async def test_a_turns_output_type_overrides_the_sessions_for_that_turn_only(
    tmp_path: Path, transport: TransportName
) -> None:
    review = json.dumps({"verdict": "approve", "findings": []})
    script = [Reply(text=json.dumps({"count": 3})), Reply(text=review), Reply(text='{"count": 4}')]
    with server_for("chat", script) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, output_type=Count, transport=transport)
        ) as s:
            first = await s.run("count them")
            second = await s.run("review it", output_type=Review)
            third = await s.run("count again")
        bodies = [r.json() for r in server.requests]
    assert (first.output, second.output, third.output) == (
        Count(3),
        Review(verdict="approve", findings=[]),
        Count(4),
    )
    assert '"count"' in _last_user_text(bodies[0])
    assert "request_changes" in _last_user_text(bodies[1])
    assert '"count"' not in _last_user_text(bodies[1])
    assert "request_changes" not in _last_user_text(bodies[2])


async def test_a_turn_without_an_output_type_answers_free_text_after_a_typed_one(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [Reply(text='{"count": 1}'), Reply(text="just prose")]
    with server_for("chat", script) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            typed = await s.run("count", output_type=Count)
            plain = await s.run("talk")
        last = _last_user_text(server.requests[1].json())
    assert typed.output == Count(1)
    assert (plain.status, plain.output, plain.final_text) == ("completed", None, "just prose")
    assert "<output_schema>" not in last


EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.py"))


def test_mypy_strict_sees_the_output_as_the_programs_type(tmp_path: Path) -> None:
    program = tmp_path / "review_types.py"
    program.write_text(TYPED_PROGRAM)
    argv = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), program.name]
    # The example programs are checked in the same run: they must pass `mypy --strict` as they are.
    argv += [str(example) for example in EXAMPLES]
    checked = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert EXAMPLES
    assert not [line for line in checked.stdout.splitlines() if "examples/" in line], checked.stdout
    lines = [line.split(": ", 1)[1] for line in checked.stdout.splitlines() if line.startswith(program.name)]
    assert lines == [
        'note: Revealed type is "review_types.Review"',
        'note: Revealed type is "review_types.Review"',
        'error: Incompatible types in assignment (expression has type "Review", variable has type "str")  '
        "[assignment]",
        'note: Revealed type is "review_types.Review"',
    ], checked.stdout + checked.stderr
