"""A steered `exec --json` stream (an intent sent by `vtcode steer` while a command runs), kept as a golden
file: the ATIF conversion's steering fixture is this real stream, not a hand-written one.

Regenerate with VTCODE_UPDATE_GOLDEN=1 after a deliberate change of the event stream; review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.e2e.steering_helpers import only_session, start_exec, steer
from tests.e2e.test_exec_event_contract import _normalized as normalized_events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

GOLDEN = Path(__file__).resolve().parent.parent / "core" / "fixtures" / "atif" / "steered.jsonl"
UPDATE = os.environ.get("VTCODE_UPDATE_GOLDEN") == "1"


def _normalized(evts: list[dict[str, Any]], workspace: Path, intent_id: str) -> list[dict[str, Any]]:
    """The event contract's placeholders for what differs between runs, and one for the steering id."""
    steered: list[dict[str, Any]] = json.loads(json.dumps(evts).replace(intent_id, "<intent>"))
    return normalized_events(steered, workspace)


def test_a_steered_exec_json_stream_matches_its_golden_file(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    sleep = json.dumps({"cmd": "sleep 4", "yield_time_ms": 30000})
    script = [
        Reply(text="Looking first.", tool_calls=(ScriptToolCall("exec_command", sleep, id="c1"),)),
        Reply(text="Removed it as well."),
    ]
    with server_for("chat", script) as server:
        env = cli_env("chat", server)
        proc = start_exec(
            vtcode, tmp_path, env, *cli_args("chat"), "--approval", "full-auto", "tidy the repo"
        )
        only_session(vtcode)
        sent = steer(vtcode, tmp_path, "also delete the scratch file")
        out, err = proc.communicate(timeout=60)
    assert sent.code == 0, sent.stderr
    assert proc.returncode == 0, err
    got = _normalized(events(out), tmp_path, sent.stdout.strip())
    if UPDATE:
        GOLDEN.write_text("".join(json.dumps(e, sort_keys=True) + "\n" for e in got))
    assert got == [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    assert [e["type"] for e in got if e["type"].startswith("intent.")] == ["intent.queued", "intent.applied"]
