"""What `vtcode exec` tells about usage and cost, and how a budget stops a run (and lets it resume).

The loopback servers report known usage; figures are checked against a hand computation at the table's
list prices (gpt-4.1: $2 in, $0.50 cached in, $8 out per million; claude-sonnet-4-5: $3 in, $0.30 cache
read, $3.75 cache write, $15 out per million).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _read(call_id: str, **usage: int) -> Reply:
    call = ScriptToolCall("read_file", json.dumps({"path": "notes.txt"}), id=call_id)
    return Reply(tool_calls=(call,), **usage)  # type: ignore[arg-type]


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.txt").write_text("hello\n")
    return ws


def test_exec_json_ends_with_the_runs_usage_and_vtcode_usage_adds_up_the_session(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = _workspace(tmp_path)
    first = {"input_tokens": 10_000, "output_tokens": 200, "cached_input_tokens": 4_000}
    script = [
        _read("c1", **first, cache_write_tokens=5_000),
        Reply(text="done", input_tokens=12_000, output_tokens=100, cached_input_tokens=9_000),
        Reply(text="again", input_tokens=3_000, output_tokens=10),
    ]
    with server_for("anthropic", script) as server:
        env = cli_env("anthropic", server)
        run = vtcode.run("exec", "--json", *cli_args("anthropic"), "read notes", cwd=ws, env=env)
        assert run.code == 0, run.stderr
        evts = events(run.stdout)
        session = str(evts[0]["thread_id"])
        again = vtcode.run(
            "exec", "--output-format", "json", *cli_args("anthropic"), "--resume", session, "more",
            cwd=ws, env=env,
        )  # fmt: skip
        assert again.code == 0, again.stderr
    call1 = (1_000 * 3 + 4_000 * 0.30 + 5_000 * 3.75 + 200 * 15) / 1e6
    call2 = (3_000 * 3 + 9_000 * 0.30 + 100 * 15) / 1e6
    call3 = (3_000 * 3 + 10 * 15) / 1e6
    assert [e["type"] for e in evts[-3:]] == ["turn.completed", "usage", "thread.completed"]
    usage = evts[-2]
    assert usage["cost_usd"] == pytest.approx(call1 + call2)
    assert usage["requests"] == 2
    assert usage["usage"] == {
        "input_tokens": 22_000,
        "output_tokens": 300,
        "cached_input_tokens": 13_000,
        "cache_creation_input_tokens": 5_000,
    }
    ((row),) = usage["rows"]
    assert (row["source"], row["model"], row["provider"]) == ("main", "claude-sonnet-4-5", "anthropic")
    # The single result object: this run's cost only, per model as Claude's `modelUsage`.
    result = json.loads(again.stdout)
    assert result["total_cost_usd"] == pytest.approx(call3)
    assert result["model_usage"]["claude-sonnet-4-5"]["requests"] == 1
    # The stored session: both runs.
    shown = vtcode.run("usage", "--session", session, "--json", cwd=ws)
    assert shown.code == 0, shown.stderr
    stored = json.loads(shown.stdout)
    assert stored["session_id"] == session
    assert stored["requests"] == 3
    assert stored["cost_usd"] == pytest.approx(call1 + call2 + call3)
    latest = vtcode.run("usage", cwd=ws)
    assert latest.code == 0, latest.stderr
    assert f"${call1 + call2 + call3:.4f}" in latest.stdout
    assert "by source:" in latest.stdout
    assert "by model:" in latest.stdout


def test_human_exec_prints_one_usage_line_on_stderr(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="hi", input_tokens=1_000, output_tokens=100)]) as server:
        run = vtcode.run("exec", *cli_args("chat"), "hello", cwd=tmp_path, env=cli_env("chat", server))
    assert run.code == 0, run.stderr
    assert run.stdout == "hi\n"
    lines = [line for line in run.stderr.splitlines() if line.startswith("usage:")]
    assert lines == ["usage: 1 request · 1,000 in · 100 out · $0.0028"]


def test_a_model_without_a_price_shows_tokens_and_cost_unknown(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    args = ["--provider", "openai", "--model", "house-model-7b"]
    with server_for("chat", [Reply(text="hi", input_tokens=1_000, output_tokens=100)] * 2) as server:
        env = cli_env("chat", server)
        human = vtcode.run("exec", *args, "hello", cwd=tmp_path, env=env)
        scripted = vtcode.run("exec", "--output-format", "json", *args, "hello", cwd=tmp_path, env=env)
    assert human.code == scripted.code == 0, human.stderr
    assert "usage: 1 request · 1,000 in · 100 out · cost unknown (no price for house-model-7b)" in (
        human.stderr
    )
    assert "$" not in human.stderr
    result = json.loads(scripted.stdout)
    assert result["total_cost_usd"] is None
    assert result["model_usage"]["house-model-7b"]["cost_usd"] is None
    stored = json.loads(vtcode.run("usage", "--json", cwd=tmp_path).stdout)
    assert stored["cost_usd"] is None
    assert stored["unpriced"] == ["house-model-7b"]
    assert stored["usage"] == {"input_tokens": 1_000, "output_tokens": 100}


def test_a_price_in_the_user_file_prices_an_unknown_model(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    (vtcode.home / ".vtcode").mkdir(exist_ok=True)
    (vtcode.home / ".vtcode" / "vtcode.toml").write_text(
        '[pricing."house-model-7b"]\ninput = 1.0\noutput = 4.0\n'
    )
    args = ["--provider", "openai", "--model", "house-model-7b"]
    with server_for("chat", [Reply(text="hi", input_tokens=1_000, output_tokens=100)]) as server:
        run = vtcode.run(
            "exec", "--output-format", "json", *args, "hi", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert run.code == 0, run.stderr
    assert json.loads(run.stdout)["total_cost_usd"] == pytest.approx((1_000 * 1 + 100 * 4) / 1e6)


def _budget_script() -> list[Any]:
    # gpt-4.1 at $2 per million input tokens: $0.0045, then 85 % ($0.0085), then $0.0125 (over).
    return [
        _read("c1", input_tokens=2_250, output_tokens=0),
        _read("c2", input_tokens=2_000, output_tokens=0),
        _read("c3", input_tokens=2_000, output_tokens=0),
        Reply(text="never asked"),
    ]


def test_max_budget_usd_stops_the_run_warns_once_and_the_session_resumes(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = _workspace(tmp_path)
    with server_for("chat", _budget_script()) as server:
        env = cli_env("chat", server)
        run = vtcode.run(
            "exec", "--json", "--max-budget-usd", "0.01", *cli_args("chat"), "read notes", cwd=ws, env=env
        )
        assert len(server.requests) == 3
        assert run.code == 1, run.stderr
        evts = events(run.stdout)
        session = str(evts[0]["thread_id"])
        resumed = vtcode.run(
            "exec", "--json", *cli_args("chat"), "--resume", session, "go on", cwd=ws, env=env
        )
        assert resumed.code == 0, resumed.stderr
        body = server.requests[-1].json()
    warnings = [e["message"] for e in evts if e["type"] == "notice" and "% of its budget" in e["message"]]
    assert warnings == ["this run used 85% of its budget: $0.0085 of $0.0100"]
    (failed,) = [e for e in evts if e["type"] == "turn.failed"]
    assert failed["kind"] == "budget"
    assert failed["exit_code"] == 1
    assert "$0.0125 of its budget of $0.0100 (--max-budget-usd)" in failed["message"]
    assert "--continue" in failed["hint"]
    assert evts[-1]["kind"] == "budget"
    # The resumed run sent the whole history: the three calls and their results, then the new prompt.
    tool_ids = [m["tool_call_id"] for m in body["messages"] if m["role"] == "tool"]
    assert tool_ids == ["c1", "c2", "c3"]
    assert body["messages"][-1] == {"role": "user", "content": "go on"}


def test_max_tokens_total_stops_the_run_with_the_same_kind(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    with server_for("chat", _budget_script()) as server:
        run = vtcode.run(
            "exec", "--output-format", "json", "--max-tokens-total", "5000", *cli_args("chat"), "read",
            cwd=ws, env=cli_env("chat", server),
        )  # fmt: skip
    assert run.code == 1, run.stderr
    result = json.loads(run.stdout)
    assert (result["kind"], result["exit_code"], result["status"]) == ("budget", 1, "failed")
    assert "6,250 tokens of its budget of 5,000 tokens (--max-tokens-total)" in result["message"]
    assert "this run used 85% of its budget: 4,250 tokens of 5,000 tokens" in run.stderr


def test_a_budget_that_is_not_a_positive_number_is_a_usage_error(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    run = vtcode.run("exec", "--max-budget-usd", "-1", "hi", cwd=tmp_path)
    assert run.code == 2
    assert "max_budget_usd" in run.stderr
    assert "Traceback" not in run.stderr
