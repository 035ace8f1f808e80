"""`vtcode steer --wait` on a session nothing runs: an error saying the intent stays queued, never a hang."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.steering_helpers import only_session
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for


def test_wait_on_a_stored_session_returns_and_keeps_the_intent(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="hi")]) as server:
        vtcode.run("exec", *cli_args("chat"), "hello", cwd=tmp_path, env=cli_env("chat", server))
    waited = vtcode.run("steer", "--wait", "one more thing", cwd=tmp_path, timeout=30)
    assert waited.code == 1
    intent_id = waited.stdout.strip()
    assert "is not running, so nothing applies the intent now; it stays queued" in waited.stderr
    assert "vtcode exec --resume" in waited.stderr
    envelope = json.loads((only_session(vtcode) / "envelope.json").read_text())
    assert [p["id"] for p in envelope["pending_intents"]] == [intent_id]
