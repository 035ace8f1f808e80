"""The `exec --json` event contract: a golden snapshot per wire format, stamps, ids unique across resumes."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import FIX_PATCH, events, git_repo
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for

FIXTURES = Path(__file__).parent / "fixtures"
# Set to rewrite the snapshots after a deliberate change of the event stream; review the diff.
UPDATE = os.environ.get("VTCODE_UPDATE_GOLDEN") == "1"


def _call(name: str, args: dict[str, object], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(args), id=call_id),), chunk_size=7)


def _normalized(evts: list[dict[str, Any]], repo: Path) -> list[dict[str, Any]]:
    """What may differ between runs (ids, paths, what the command printed) replaced by placeholders."""
    text = json.dumps(evts)
    text = text.replace(str(repo), "<workspace>")
    normalized: list[dict[str, Any]] = json.loads(text)
    for event in normalized:
        if event["type"] in ("thread.started", "thread.completed"):
            event["thread_id"] = "<thread>"
        if event["type"] == "usage":
            # API time is measured, so it differs per run (0 keeps the snapshot valid to the schema).
            for part in (event, *event["rows"]):
                part["api_ms"] = 0
        item = event.get("item") or {}
        if item.get("type") == "command_execution" and item.get("result"):
            item["result"] = "<result>"
            item["session_id"] = "<session>"
            # The same result parsed: times and the session id differ per run.
            item["result_json"] = {"<result>": "parsed"}
        if item.get("type") == "tool_call" and item.get("result"):
            item["result"] = re.sub(r"\s+", " ", item["result"])[:60]
    return normalized


@pytest.mark.parametrize("wire", WIRES)
def test_exec_json_matches_the_golden_stream(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire) -> None:
    repo = git_repo(tmp_path / "repo")
    script = [
        _call("read_file", {"path": "calc.py"}, "c1"),
        _call("apply_patch", {"patch": FIX_PATCH}, "c2"),
        _call("exec_command", {"cmd": "python3 check.py"}, "c3"),
        Reply(text="Fixed.", reasoning="all good", chunk_size=5),
    ]
    with server_for(wire, script) as server:
        result = vtcode.run(
            "exec", "--json", "--approval", "full-auto", *cli_args(wire), "fix it", cwd=repo,
            env=cli_env(wire, server),
        )  # fmt: skip
    assert result.code == 0, result.stderr
    got = _normalized(events(result.stdout), repo)
    golden = FIXTURES / f"exec_json_{wire}.jsonl"
    if UPDATE:
        golden.write_text("".join(json.dumps(e, sort_keys=True) + "\n" for e in got))
    expected = [json.loads(line) for line in golden.read_text().splitlines()]
    assert got == expected


def test_json_deltas_are_printed_only_when_asked(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="streamed answer", chunk_size=3)] * 2) as server:
        env = cli_env("chat", server)
        plain = vtcode.run("exec", "--json", *cli_args("chat"), "hi", cwd=tmp_path, env=env)
        with_deltas = vtcode.run(
            "exec", "--json", "--json-deltas", *cli_args("chat"), "hi", cwd=tmp_path, env=env
        )
    assert plain.code == with_deltas.code == 0
    assert not [e for e in events(plain.stdout) if e["type"] == "item.delta"]
    deltas = [e for e in events(with_deltas.stdout) if e["type"] == "item.delta"]
    assert "".join(d["delta"] for d in deltas) == "streamed answer"
    message = next(e for e in events(with_deltas.stdout) if e["type"] == "item.completed")
    assert {d["item_id"] for d in deltas} == {message["item"]["id"]}
    assert {d["kind"] for d in deltas} == {"text"}


def test_item_ids_stay_unique_across_a_resumed_session(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    def turn(call_id: str) -> list[Reply]:
        return [_call("list_files", {}, call_id), Reply(text=f"listed {call_id}")]

    with server_for("chat", [*turn("a"), *turn("b"), *turn("c")]) as server:
        env = cli_env("chat", server)
        first = vtcode.run("exec", "--json", *cli_args("chat"), "one", cwd=tmp_path, env=env)
        second = vtcode.run("exec", "--json", "--continue", *cli_args("chat"), "two", cwd=tmp_path, env=env)
        third = vtcode.run("exec", "--json", "--continue", *cli_args("chat"), "three", cwd=tmp_path, env=env)
    assert [first.code, second.code, third.code] == [0, 0, 0], third.stderr
    thread = events(first.stdout)[0]["thread_id"]
    log = vtcode.home / ".vtcode" / "sessions" / thread / "events.jsonl"
    stored = [json.loads(line) for line in log.read_text().splitlines()]
    started = [e["item"]["id"] for e in stored if e["type"] == "item.started"]
    assert len(started) == 6
    assert len(set(started)) == 6
    assert [e["turn_id"] for e in stored if e["type"] == "turn.started"] == ["turn_1", "turn_2", "turn_3"]
    # Each run announces the thread once, first.
    assert [e["type"] for e in stored].count("thread.started") == 3
    assert all(isinstance(e["ts"], float) for e in stored)


def test_thread_started_comes_first_also_when_a_resume_has_something_to_say(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    first_ws, other_ws = tmp_path / "first", tmp_path / "other"
    first_ws.mkdir()
    other_ws.mkdir()
    with server_for("chat", [Reply(text="one"), Reply(text="two")]) as server:
        env = cli_env("chat", server)
        first = vtcode.run("exec", "--json", *cli_args("chat"), "one", cwd=first_ws, env=env)
        session = events(first.stdout)[0]["thread_id"]
        resumed = vtcode.run(
            "exec", "--json", "--resume", session, *cli_args("chat"), "two", cwd=other_ws, env=env
        )
    evts = events(resumed.stdout)
    assert resumed.code == 0, resumed.stderr
    assert evts[0]["type"] == "thread.started"
    assert evts[0]["resumed"] is True
    assert any(e["type"] == "notice" and "continues here" in e["message"] for e in evts[1:])
