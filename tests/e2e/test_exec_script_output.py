"""`vtcode exec` for scripts: one result object, the last message in a file, a schema-checked answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events, shape
from vtcode.testing.script import Reply, Step
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for

_SCHEMA = {
    "type": "object",
    "properties": {"title": {"type": "string"}, "files": {"type": "array", "items": {"type": "string"}}},
    "required": ["title", "files"],
    "additionalProperties": False,
}


def _exec(
    vtcode: VtcodeRunner, tmp_path: Path, script: list[Step], *args: str, wire: Wire = "chat"
) -> tuple[int, str, str, list[str]]:
    with server_for(wire, script) as server:
        result = vtcode.run("exec", *cli_args(wire), *args, cwd=tmp_path, env=cli_env(wire, server))
        bodies = [r.body.decode() for r in server.requests]
    assert "Traceback" not in result.stderr
    return result.code, result.stdout, result.stderr, bodies


@pytest.mark.parametrize("wire", WIRES)
def test_json_output_is_one_result_object(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire) -> None:
    code, stdout, stderr, _ = _exec(
        vtcode,
        tmp_path,
        [Reply(text="The answer is 42.", input_tokens=11, output_tokens=7)],
        "--output-format",
        "json",
        "what is the answer",
        wire=wire,
    )
    assert code == 0, stderr
    (line,) = stdout.splitlines()
    result = json.loads(line)
    session_id = result.pop("session_id")
    assert isinstance(session_id, str)
    assert session_id
    assert result == {
        "type": "result",
        "schema_version": 1,
        "status": "completed",
        "is_error": False,
        "kind": None,
        "exit_code": 0,
        "message": None,
        "result": "The answer is 42.",
        "num_turns": 1,
        "usage": result["usage"],
        "total_cost_usd": result["total_cost_usd"],
        "model_usage": result["model_usage"],
        "structured_output": None,
    }
    assert (result["usage"]["input_tokens"], result["usage"]["output_tokens"]) == (11, 7)


def test_jsonl_ends_with_thread_completed(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    code, stdout, stderr, _ = _exec(vtcode, tmp_path, [Reply(text="hi")], "--json", "hello")
    assert code == 0, stderr
    evts = events(stdout)
    assert shape(evts)[-3:] == ["turn.completed", "usage", "thread.completed"]
    last = evts[-1]
    assert (last["thread_id"], last["status"], last["kind"], last["exit_code"], last["turns"]) == (
        evts[0]["thread_id"],
        "completed",
        "",
        0,
        1,
    )
    # The same with the new name of the format.
    code, stdout, stderr, _ = _exec(vtcode, tmp_path, [Reply(text="hi")], "--output-format", "jsonl", "hello")
    assert code == 0, stderr
    assert shape(events(stdout))[-1] == "thread.completed"


def test_last_message_file_and_session_line_in_human_mode(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    out = tmp_path / "answer.txt"
    code, stdout, stderr, _ = _exec(
        vtcode, tmp_path, [Reply(text="Use a mutex.")], "-o", str(out), "how do I fix the race"
    )
    assert code == 0, stderr
    assert stdout == "Use a mutex.\n"
    assert out.read_text() == "Use a mutex."
    last = stderr.splitlines()[-1]
    session_id = last.split()[1]
    assert last == f"session: {session_id}  (resume with vtcode exec --resume {session_id} ...)"
    assert (vtcode.home / ".vtcode" / "sessions" / session_id).is_dir()


def test_output_schema_reasks_invalid_answers_until_one_validates(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(_SCHEMA))
    valid = {"title": "fix: add", "files": ["calc.py"]}
    script: list[Step] = [
        Reply(text="Sure! Here is the summary."),
        Reply(text=json.dumps({"title": "fix: add", "files": "calc.py"})),
        Reply(text=json.dumps(valid)),
    ]
    code, stdout, stderr, bodies = _exec(
        vtcode, tmp_path, script, "--output-format", "json", "--output-schema", str(schema), "summarize"
    )
    assert code == 0, stderr
    result = json.loads(stdout)
    assert (result["status"], result["structured_output"]) == ("completed", valid)
    assert json.loads(result["result"]) == valid
    assert len(bodies) == 3
    # The model was told the schema, and what was wrong each time.
    assert '\\"additionalProperties\\": false' in bodies[0]
    assert "the answer is not JSON" in bodies[1]
    assert "at files: 'calc.py' is not of type 'array'" in bodies[2]


def test_output_schema_gives_up_with_invalid_output(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(_SCHEMA))
    out = tmp_path / "last.txt"
    script: list[Step] = [Reply(text=f"not json, try {n}") for n in range(3)]
    code, stdout, stderr, bodies = _exec(
        vtcode,
        tmp_path,
        script,
        "--output-format",
        "json",
        "--output-schema",
        str(schema),
        "-o",
        str(out),
        "summarize",
    )
    assert code == 1
    assert len(bodies) == 3
    result = json.loads(stdout)
    assert (result["status"], result["is_error"], result["kind"], result["exit_code"]) == (
        "failed",
        True,
        "invalid_output",
        1,
    )
    assert result["result"] == "not json, try 2"
    assert result["structured_output"] is None
    assert "output schema" in result["message"]
    assert out.read_text() == "not json, try 2"
    assert "does not match the output schema" in stderr


def test_unusable_schema_file_is_a_usage_error_with_a_json_result(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "nonsense"}')
    code, stdout, stderr, bodies = _exec(
        vtcode, tmp_path, [], "--output-format", "json", "--output-schema", str(schema), "go"
    )
    assert code == 2
    assert bodies == []
    result = json.loads(stdout)
    assert (result["status"], result["kind"], result["exit_code"]) == ("failed", "usage", 2)
    assert "not a valid JSON Schema" in result["message"]
    assert "not a valid JSON Schema" in stderr
