"""Streams that stall or break, through the real CLI: a deadline ends the stall, a reset is retried once.

A server that sends only `: keep-alive` comments resets a per-read idle timeout forever; the overall
response deadline (`network.response_deadline_seconds`) ends it. A connection reset after answer text
(before any tool call) is retried, and the answer reaches the user, the event stream and the history
whole and once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for

DEADLINE = ["-c", "network.response_deadline_seconds=2", "-c", "network.max_retries=1"]
ANSWER = "The whole answer, streamed in small pieces so the reset lands in the middle of it. " * 3


@pytest.mark.parametrize("wire", WIRES)
def test_a_stream_of_only_keep_alive_comments_ends_at_the_deadline_and_is_retried(
    vtcode: VtcodeRunner, tmp_path: Path, wire: Wire
) -> None:
    script = [Reply(text="never sent", stall_after=0), Reply(text="second try")]
    with server_for(wire, script) as server:
        result = vtcode.run("exec", *DEADLINE, *cli_args(wire), "hi", cwd=tmp_path, env=cli_env(wire, server))
        requests = len(server.requests)
    assert result.code == 0, result.stderr
    assert result.stdout == "second try\n"
    assert requests == 2
    assert "no complete response within 2 s" in result.stderr
    assert "retrying in" in result.stderr


def test_a_stall_after_some_text_that_persists_is_one_clear_error(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    script = [Reply(text="some text first", chunk_size=4, stall_after=3)] * 2
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", "--json", *DEADLINE, *cli_args("chat"), "hi", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert result.code == 4, result.stderr
    failed = [e for e in events(result.stdout) if e["type"].startswith("turn.")][-1]
    assert failed["type"] == "turn.failed"
    assert failed["kind"] == "network"
    assert "no complete response within 2 s" in failed["message"]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("wire", WIRES)
def test_a_reset_after_text_only_is_retried_and_the_answer_arrives_once(
    vtcode: VtcodeRunner, tmp_path: Path, wire: Wire
) -> None:
    broken = Reply(text=ANSWER, chunk_size=8, drop_after=8, delay_between=0.02)
    with server_for(wire, [broken, Reply(text=ANSWER, chunk_size=8)]) as server:
        result = vtcode.run(
            "exec", "--json", "--json-deltas", *cli_args(wire), "hi", cwd=tmp_path, env=cli_env(wire, server)
        )
        requests = len(server.requests)
    assert result.code == 0, result.stderr
    assert requests == 2
    evts = events(result.stdout)
    assert [e["type"] for e in evts][-3:] == ["turn.completed", "usage", "thread.completed"]
    deltas = [e["delta"] for e in evts if e["type"] == "item.delta" and e["kind"] == "text"]
    # The live text: what the first attempt showed, then only the retried reply's continuation.
    assert "".join(deltas) == ANSWER
    answers = [
        e["item"]["text"]
        for e in evts
        if e["type"] == "item.completed" and e["item"]["type"] == "agent_message"
    ]
    assert answers == [ANSWER]
    # The history the next request carries holds the answer once.
    with server_for(wire, [Reply(text="ok")]) as server:
        again = vtcode.run(
            "exec", *cli_args(wire), "--continue", "more", cwd=tmp_path, env=cli_env(wire, server)
        )
        body = server.requests[-1].body.decode()
    assert again.code == 0, again.stderr
    assert body.count(ANSWER.strip()) == 1
