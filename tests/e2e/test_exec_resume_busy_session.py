"""A session another vtcode process is still writing cannot be resumed: the second run says so at once, in
one error, before it records or asks anything; once the writer is gone, the session resumes."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for


def _wait_for(condition: Callable[[], bool], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_resuming_a_session_another_process_writes_is_one_clear_error_and_changes_nothing(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    # The first run waits for its model's answer: its prompt is stored, nothing in its history needs
    # repair, so only the writer lock can tell that the session is busy.
    script = [Reply(text="too late", delay_before=60), Reply(text="built"), Reply(text="resumed")]
    with server_for("chat", script) as server:
        env = vtcode.env(cli_env("chat", server))
        writer = subprocess.Popen(
            vtcode.command("exec", "--json", *cli_args("chat"), "--approval", "full-auto", "build it"),
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        try:
            assert writer.stdout is not None
            session = json.loads(writer.stdout.readline())["thread_id"]
            _wait_for(lambda: len(server.requests) == 1, "the first run's model request")
            events = vtcode.home / ".vtcode" / "sessions" / session / "events.jsonl"
            events_before = events.read_bytes()
            busy = vtcode.run("exec", *cli_args("chat"), "--resume", session, "go on", cwd=tmp_path, env=env)
            assert busy.code != 0
            assert "is being written by another vtcode process" in busy.stderr
            assert "finish or stop the other vtcode process" in busy.stderr
            # Refused before anything ran: no warning per event it could not record, no model request.
            assert "event not recorded" not in busy.stderr, busy.stderr
            assert busy.stderr.count("being written by another vtcode process") == 1, busy.stderr
            assert len(server.requests) == 1
            assert events.read_bytes() == events_before
        finally:
            writer.kill()
            writer.wait()
        again = vtcode.run("exec", *cli_args("chat"), "--resume", session, "go on", cwd=tmp_path, env=env)
    # The stored prompt the first run never got an answer to is answered first, then the new one.
    assert again.code == 0, again.stderr
    assert again.stdout.split() == ["built", "resumed"]
    assert "being written" not in again.stderr
