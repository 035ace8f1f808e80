"""The SDK's events are the `vtcode exec --json` lines: the same script gives the exec golden stream."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

import vtcode.sdk as vt
from tests.e2e.harness import FIX_PATCH, git_repo
from tests.e2e.test_exec_event_contract import FIXTURES, _call, _normalized
from tests.sdk.sdk_helpers import sdk_options
from tests.sdk.transport_params import in_process_each_and_one_subprocess
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply
from vtcode.testing.wire import WIRES, Wire, server_for


def _as_exec_lines(events: list[vt.Event]) -> list[dict[str, Any]]:
    """Events as `exec --json` prints them by default: no deltas, one JSON object each, `ts` dropped."""
    lines: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, vt.ItemDelta):
            continue
        line = json.loads(msgspec.json.encode(event))
        assert isinstance(line.pop("ts"), float)
        lines.append(line)
    return lines


@in_process_each_and_one_subprocess("wire", list(WIRES))
async def test_sdk_events_match_the_exec_json_golden_stream(
    tmp_path: Path, wire: Wire, transport: TransportName
) -> None:
    repo = git_repo(tmp_path / "repo")
    script = [
        _call("read_file", {"path": "calc.py"}, "c1"),
        _call("apply_patch", {"patch": FIX_PATCH}, "c2"),
        _call("exec_command", {"cmd": "python3 check.py"}, "c3"),
        Reply(text="Fixed.", reasoning="all good", chunk_size=5),
    ]
    with server_for(wire, script) as server:
        async with await vt.Session.open(sdk_options(repo, server, wire=wire, transport=transport)) as s:
            turn = await s.start("fix it")
            events = [event async for event in turn.events()]
            result = await turn.result()
    got = _normalized(_as_exec_lines(events), repo)
    golden = [json.loads(line) for line in (FIXTURES / f"exec_json_{wire}.jsonl").read_text().splitlines()]
    # `usage` and `thread.completed` end an `exec` run (the process), not a turn: an SDK session goes on
    # (and reads its usage with `Session.usage()`).
    assert got == [event for event in golden if event["type"] not in ("usage", "thread.completed")]
    deltas = "".join(e.delta for e in events if isinstance(e, vt.ItemDelta) and e.kind == "text")
    assert deltas == result.final_text == "Fixed."
