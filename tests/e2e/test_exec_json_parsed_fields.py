"""`exec --json` tool items carry their arguments and JSON results parsed, beside the unchanged strings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.protocol.events import CommandExecutionItem, ItemCompleted, ToolCallItem, TurnStarted
from vtcode.protocol.parsed_fields import with_parsed_json
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for


@pytest.mark.parametrize("wire", WIRES)
def test_exec_json_tool_items_carry_parsed_arguments_and_results(
    vtcode: VtcodeRunner, tmp_path: Path, wire: Wire
) -> None:
    (tmp_path / "notes.txt").write_text("one\ntwo\n")
    read_args = {"path": "notes.txt", "offset": 1}
    calls = (
        ScriptToolCall("read_file", json.dumps(read_args), id="c1"),
        ScriptToolCall("exec_command", json.dumps({"cmd": "echo hi"}), id="c2"),
    )
    with server_for(wire, [Reply(tool_calls=calls), Reply(text="done")]) as server:
        result = vtcode.run(
            "exec", "--json", "--approval", "full-auto", *cli_args(wire), "go", cwd=tmp_path,
            env=cli_env(wire, server),
        )  # fmt: skip
    assert result.code == 0, result.stderr
    done = [e["item"] for e in events(result.stdout) if e["type"] == "item.completed"]
    read = next(item for item in done if item["type"] == "tool_call")
    # The string stays as it was; the parsed form is the same arguments, no second decode needed.
    assert json.loads(read["arguments"]) == read_args
    assert read["arguments_json"] == read_args
    command = next(item for item in done if item["type"] == "command_execution")
    assert isinstance(command["result"], str)
    assert command["result_json"] == json.loads(command["result"])
    assert isinstance(command["result_json"], dict)
    # events.jsonl keeps the strings alone: the parsed forms are derived, not stored twice.
    thread = events(result.stdout)[0]["thread_id"]
    log = vtcode.home / ".vtcode" / "sessions" / thread / "events.jsonl"
    stored = log.read_text()
    assert '"notes.txt' in stored
    assert all(json.loads(line).get("item", {}).get("arguments_json") is None for line in stored.splitlines())


def test_only_json_objects_and_arrays_are_parsed() -> None:
    def parsed(arguments: str, result: str | None) -> ToolCallItem:
        item = ToolCallItem(id="i", name="t", arguments=arguments, result=result, status="completed")
        event = with_parsed_json(ItemCompleted(item=item))
        assert isinstance(event, ItemCompleted)
        assert isinstance(event.item, ToolCallItem)
        return event.item

    assert parsed('{"a": [1]}', '[{"b": 2}]').arguments_json == {"a": [1]}
    assert parsed('{"a": [1]}', '[{"b": 2}]').result_json == [{"b": 2}]
    assert parsed('{"a": 1}', '{"ok": true}').result_json == {"ok": True}
    # Not an object, not JSON, or plain text that happens to be a JSON scalar: no parsed form.
    assert parsed("[1]", "42").arguments_json is None
    assert parsed("[1]", "42").result_json is None
    assert parsed("{broken", "line one\nline two").arguments_json is None
    assert parsed("", None).result_json is None
    command = CommandExecutionItem(id="c", command="ls", result='{"exit_code": 0}')
    event = with_parsed_json(ItemCompleted(item=command))
    assert isinstance(event, ItemCompleted)
    assert isinstance(event.item, CommandExecutionItem)
    assert event.item.result_json == {"exit_code": 0}
    assert with_parsed_json(TurnStarted()) == TurnStarted()
