"""Provider failures through the real CLI: exit codes, one-line messages, never a traceback."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import HttpError, Reply
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for

FAST = ["-c", "network.max_retries=2"]


def _exec(vtcode: VtcodeRunner, ws: Path, wire: Wire, script: list[HttpError | Reply], *extra: str):  # type: ignore[no-untyped-def]
    with server_for(wire, script) as server:
        result = vtcode.run("exec", *FAST, *extra, *cli_args(wire), "hi", cwd=ws, env=cli_env(wire, server))
        return result, list(server.requests)


@pytest.mark.parametrize("wire", WIRES)
def test_429_with_retry_after_is_retried_once_after_waiting(
    vtcode: VtcodeRunner, tmp_path: Path, wire: Wire
) -> None:
    script: list[HttpError | Reply] = [
        HttpError(429, "slow down", "rate_limit_error", headers={"Retry-After": "1"}),
        Reply(text="after the wait"),
    ]
    result, requests = _exec(vtcode, tmp_path, wire, script)
    assert result.code == 0, result.stderr
    assert result.stdout == "after the wait\n"
    assert len(requests) == 2
    assert requests[1].received_at - requests[0].received_at >= 1.0


@pytest.mark.parametrize("wire", WIRES)
def test_persistent_500_exits_4_with_one_line(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire) -> None:
    script: list[HttpError | Reply] = [HttpError(500, "upstream exploded", "api_error")] * 3
    result, requests = _exec(vtcode, tmp_path, wire, script)
    assert result.code == 4
    assert len(requests) == 3
    # The session line (to resume) is apart from the failure.
    *retries, final = [x for x in result.stderr.strip().splitlines() if not x.startswith("session: ")]
    # Each retry is announced (never silent); the failure itself is one line.
    assert len(retries) == 2, result.stderr
    assert all("retrying in" in line for line in retries), result.stderr
    assert final.startswith("vtcode: ")
    assert "HTTP 500" in final
    assert "upstream exploded" in final
    assert "after 2 retries" in final


@pytest.mark.parametrize(
    ("wire", "variable"),
    [("chat", "OPENAI_API_KEY"), ("responses", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")],
)
def test_401_exits_4_naming_the_key_variable(
    vtcode: VtcodeRunner, tmp_path: Path, wire: Wire, variable: str
) -> None:
    script: list[HttpError | Reply] = [HttpError(401, "invalid x-api-key", "authentication_error")]
    result, requests = _exec(vtcode, tmp_path, wire, script)
    assert result.code == 4
    assert len(requests) == 1
    assert f"check the API key in {variable}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("wire", WIRES)
def test_drop_mid_stream_before_output_is_retried(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire) -> None:
    script: list[HttpError | Reply] = [Reply(text="lost", drop_after=1), Reply(text="second try")]
    result, requests = _exec(vtcode, tmp_path, wire, script)
    assert result.code == 0, result.stderr
    assert result.stdout == "second try\n"
    assert len(requests) == 2


@pytest.mark.parametrize("wire", WIRES)
def test_drops_after_output_on_every_retry_are_a_clear_error_never_a_complete_answer(
    vtcode: VtcodeRunner, tmp_path: Path, wire: Wire
) -> None:
    script: list[HttpError | Reply] = [
        Reply(text="a partial answer " * 20, chunk_size=8, drop_after=8, delay_between=0.02)
    ] * 3
    with server_for(wire, script) as server:
        result = vtcode.run(
            "exec", "--json", *FAST, *cli_args(wire), "hi", cwd=tmp_path, env=cli_env(wire, server)
        )
    assert result.code == 4
    evts = events(result.stdout)
    assert [e["type"] for e in evts[-3:]] == ["turn.failed", "usage", "thread.completed"]
    assert evts[-3]["kind"] == evts[-1]["kind"] == "network"
    assert "broke after partial output" in evts[-3]["message"]
    assert not [e for e in evts if e["type"] == "item.completed" and e["item"]["type"] == "agent_message"]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("wire", WIRES)
def test_malformed_chunk_is_a_clear_error(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire) -> None:
    script: list[HttpError | Reply] = [Reply(text="hello there", malformed_after=2)]
    result, _ = _exec(vtcode, tmp_path, wire, script)
    assert result.code == 4
    assert "malformed streaming response" in result.stderr
    assert "Traceback" not in result.stderr


def test_context_length_400_is_classified_as_overflow(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    overflow = HttpError(
        400,
        "This model's maximum context length is 128000 tokens. However, your messages resulted in "
        "130000 tokens.",
        "invalid_request_error",
        code="context_length_exceeded",
    )
    with server_for("chat", [overflow]) as server:
        result = vtcode.run(
            "exec", "--json", *cli_args("chat"), "hi", cwd=tmp_path, env=cli_env("chat", server)
        )
        assert len(server.requests) == 1
    assert result.code == 4
    assert events(result.stdout)[-3]["kind"] == "context_overflow"


def test_unreachable_server_is_a_network_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    started = time.monotonic()
    result = vtcode.run(
        "exec",
        "-c",
        "network.max_retries=1",
        *cli_args("chat"),
        "hi",
        cwd=tmp_path,
        env={"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"},
    )
    assert result.code == 4
    assert "network error" in result.stderr
    assert time.monotonic() - started < 30
    assert "Traceback" not in result.stderr
