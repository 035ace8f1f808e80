"""docs/exec-events.schema.json: generated from the event types, current, and true of what vtcode writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.protocol.errors import FAILURE_KINDS
from vtcode.protocol.event_schema import SCHEMA_PATH, schema_text
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for

_ROOT = Path(__file__).resolve().parents[2]
_GOLDEN_STREAMS = [
    *sorted((_ROOT / "tests" / "e2e" / "fixtures").glob("exec_json_*.jsonl")),
    *sorted((_ROOT / "tests" / "protocol" / "fixtures").glob("events_v1*.jsonl")),
]


def _validator() -> Draft202012Validator:
    schema = json.loads((_ROOT / SCHEMA_PATH).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _errors(validator: Draft202012Validator, value: Any) -> list[str]:
    return [error.message for error in validator.iter_errors(value)]


def test_the_published_schema_is_generated_from_the_current_types() -> None:
    assert (_ROOT / SCHEMA_PATH).read_text(encoding="utf-8") == schema_text(), (
        "regenerate it: .venv/bin/python scripts/gen_event_schema.py"
    )


def test_every_event_of_the_golden_streams_validates() -> None:
    validator = _validator()
    assert {path.name for path in _GOLDEN_STREAMS} >= {
        "exec_json_chat.jsonl",
        "exec_json_responses.jsonl",
        "exec_json_anthropic.jsonl",
    }
    for path in _GOLDEN_STREAMS:
        for line in path.read_text(encoding="utf-8").splitlines():
            assert _errors(validator, json.loads(line)) == [], (path.name, line)


def test_the_schema_rejects_what_is_not_an_event() -> None:
    validator = _validator()
    assert _errors(validator, {"type": "turn.started", "schema_version": 1, "surprise": 1})
    assert _errors(validator, {"type": "no.such.event"})


@pytest.mark.parametrize("wire", WIRES)
def test_a_live_run_and_its_result_object_validate(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire) -> None:
    validator = _validator()
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "echo hi"}), id="c1")
    script = [Reply(tool_calls=(call,)), Reply(text="done", reasoning="easy"), Reply(text="again")]
    with server_for(wire, script) as server:
        env = cli_env(wire, server)
        jsonl = vtcode.run(
            "exec", "--json", "--approval", "full-auto", *cli_args(wire), "go", cwd=tmp_path, env=env
        )
        result = vtcode.run("exec", "--output-format", "json", *cli_args(wire), "go", cwd=tmp_path, env=env)
    assert jsonl.code == 0, jsonl.stderr
    assert result.code == 0, result.stderr
    for line in jsonl.stdout.splitlines():
        assert _errors(validator, json.loads(line)) == [], line
    assert _errors(validator, json.loads(result.stdout)) == []


def _failed_run(vtcode: VtcodeRunner, tmp_path: Path, script: list[Reply], *args: str) -> dict[str, Any]:
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", "--json", *cli_args("chat"), *args, "go", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert result.code == 1, result.stderr
    evts = events(result.stdout)
    assert [e["type"] for e in evts[-3:]] == ["turn.failed", "usage", "thread.completed"]
    assert evts[-3]["kind"] == evts[-1]["kind"]
    assert evts[-3]["kind"] in FAILURE_KINDS
    return evts[-3]


def test_failure_kinds_name_what_stopped_the_agent(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    call = ScriptToolCall("list_files", "{}", id="c1")
    loop = [Reply(tool_calls=(call,))] * 8
    assert _failed_run(vtcode, tmp_path, loop, "--max-turns", "2")["kind"] == "max_turns"
    assert _failed_run(vtcode, tmp_path, loop)["kind"] == "loop_guard"
    assert _failed_run(vtcode, tmp_path, [Reply(text="")])["kind"] == "empty_answer"


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (("-c", "agent.max_turns=banana"), "config"),
        (("--resume", "no-such-session"), "store"),
    ],
)
@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_errors_before_the_run_still_print_json(
    vtcode: VtcodeRunner, tmp_path: Path, args: tuple[str, ...], kind: str, fmt: str
) -> None:
    validator = _validator()
    with server_for("chat", []) as server:
        result = vtcode.run(
            "exec",
            "--output-format",
            fmt,
            *cli_args("chat"),
            *args,
            "go",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
    assert result.code == 2, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    for line in lines:
        assert _errors(validator, line) == [], line
    assert lines[-1]["kind"] == kind
    assert lines[-1]["exit_code"] == 2
    assert [line["type"] for line in lines] == (
        ["result"] if fmt == "json" else ["turn.failed", "thread.completed"]
    )
