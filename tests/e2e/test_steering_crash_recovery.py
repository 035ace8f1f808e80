"""Every accepted intent is applied exactly once, in order, whatever moment `vtcode exec` is killed at.

Each trial runs a real `vtcode exec` against the loopback server, sends intents with `vtcode steer`
(several with the same text), kills the exec with SIGKILL at a random moment, resumes the session, and
checks the history. `bench/steering_crash_bench.py` runs the same trial hundreds of times.
"""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.steering_helpers import applied_intents, only_session, start_exec, steer
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

TRIALS = 20
TEXTS = ("run the tests", "run the tests", "fix the lint", "run the tests")


def _trial(vtcode: VtcodeRunner, workspace: Path, rng: random.Random) -> None:
    workspace.mkdir()
    replies = [Reply(text=f"reply {n}", chunk_size=3, delay_between=rng.uniform(0, 0.02)) for n in range(40)]
    with server_for("chat", replies) as server:
        env = cli_env("chat", server)
        proc = start_exec(vtcode, workspace, env, *cli_args("chat"), "start")
        session = only_session(vtcode)
        kill_at = time.monotonic() + rng.uniform(0.0, 1.2)
        accepted: list[tuple[str, str]] = []
        for text in TEXTS:
            if proc.poll() is None and time.monotonic() >= kill_at:
                proc.send_signal(signal.SIGKILL)
            sent = steer(
                vtcode, workspace, "--session", session.name, "--mode", rng.choice(("queue", "steer")), text
            )
            assert sent.code == 0, sent.stderr
            accepted.append((sent.stdout.strip(), text))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
        resumed = vtcode.run(
            "exec", "--resume", session.name, *cli_args("chat"), "finish", cwd=workspace, env=env, timeout=60
        )
    assert resumed.code == 0, resumed.stderr
    applied = applied_intents(session)
    # Exactly once each, in the order they were accepted; identical texts stay distinct intents. (The
    # resumed run's own prompt may be an intent too, when it had to wait behind recovered ones.)
    assert len({intent_id for intent_id, _ in applied}) == len(applied)
    assert [a for a in applied if a in accepted] == accepted


@pytest.mark.parametrize("seed", range(TRIALS))
def test_killed_exec_applies_every_accepted_intent_exactly_once(
    vtcode: VtcodeRunner, tmp_path: Path, seed: int
) -> None:
    _trial(vtcode, tmp_path / "ws", random.Random(seed))
