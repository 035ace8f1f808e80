"""What a failed `vtcode exec` run says it spent: the tokens of the calls made before the failure are
in its result object and its `turn.failed` event, in step with the cost it reports; each
`turn.completed` says what its turn cost.

Figures are hand-computed at the table's list prices (gpt-4.1: $2 in, $0.50 cached in, $8 out per
million).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import HttpError, Reply, ScriptToolCall, Step
from vtcode.testing.wire import cli_args, cli_env, server_for

_CALL = ScriptToolCall("read_file", json.dumps({"path": "notes.txt"}), id="c1")
_SPENT = (1_000 * 2 + 50 * 8) / 1e6


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.txt").write_text("hello\n")
    return ws


def test_a_failed_runs_result_object_counts_the_tokens_it_spent(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    script: list[Step] = [
        Reply(tool_calls=(_CALL,), input_tokens=1_000, output_tokens=50),
        HttpError(400, "too long"),
    ]
    with server_for("chat", script) as server:
        run = vtcode.run(
            "exec", "--output-format", "json", *cli_args("chat"), "read notes",
            cwd=_workspace(tmp_path), env=cli_env("chat", server),
        )  # fmt: skip
    assert run.code == 4, run.stderr
    result = json.loads(run.stdout)
    assert result["status"] == "failed"
    assert result["usage"] == {"input_tokens": 1_000, "output_tokens": 50}
    assert result["total_cost_usd"] == pytest.approx(_SPENT)


def test_exec_json_turn_events_carry_the_turns_usage_and_cost(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    script: list[Step] = [
        Reply(text="first", input_tokens=2_000, output_tokens=10, cached_input_tokens=1_000),
        Reply(tool_calls=(_CALL,), input_tokens=1_000, output_tokens=50),
        HttpError(400, "too long"),
    ]
    ws = _workspace(tmp_path)
    with server_for("chat", script) as server:
        env = cli_env("chat", server)
        first = vtcode.run("exec", "--json", *cli_args("chat"), "hello", cwd=ws, env=env)
        assert first.code == 0, first.stderr
        session = str(events(first.stdout)[0]["thread_id"])
        failed = vtcode.run(
            "exec", "--json", *cli_args("chat"), "--resume", session, "read notes", cwd=ws, env=env
        )
    assert failed.code == 4, failed.stderr
    completed = next(e for e in events(first.stdout) if e["type"] == "turn.completed")
    assert completed["cost_usd"] == pytest.approx((1_000 * 2 + 1_000 * 0.5 + 10 * 8) / 1e6)
    ended = next(e for e in events(failed.stdout) if e["type"] == "turn.failed")
    assert ended["usage"] == {"input_tokens": 1_000, "output_tokens": 50}
    assert ended["cost_usd"] == pytest.approx(_SPENT)
    closing = events(failed.stdout)[-1]
    assert closing["type"] == "thread.completed"
    assert closing["usage"] == {"input_tokens": 1_000, "output_tokens": 50}
