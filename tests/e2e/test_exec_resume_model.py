"""A resumed session keeps its own provider and model unless the run names others (then meta.json says so)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_env, server_for


def test_resume_keeps_the_sessions_model_unless_one_is_named(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="one"), Reply(text="two"), Reply(text="three")]) as server:
        # Anthropic's key is set too: auto-detection alone would pick another provider on resume.
        env = {
            **cli_env("chat", server),
            "ANTHROPIC_API_KEY": "k",
            "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
        }
        first = vtcode.run(
            "exec",
            "--json",
            "--provider",
            "openai",
            "--model",
            "gpt-4.1-mini",
            "hello",
            cwd=tmp_path,
            env=env,
        )
        assert first.code == 0, first.stderr
        session = events(first.stdout)[0]["thread_id"]
        again = vtcode.run("exec", "--json", "--resume", session, "and again", cwd=tmp_path, env=env)
        assert again.code == 0, again.stderr
        switched = vtcode.run(
            "exec", "--resume", session, "-c", "agent.model=gpt-4.1", "once more", cwd=tmp_path, env=env
        )
        assert switched.code == 0, switched.stderr
        models = [r.json()["model"] for r in server.requests]
    assert models == ["gpt-4.1-mini", "gpt-4.1-mini", "gpt-4.1"]
    assert (
        f"session {session} ran with openai gpt-4.1-mini; it continues with openai gpt-4.1" in switched.stderr
    )
    meta = json.loads((vtcode.home / ".vtcode" / "sessions" / session / "meta.json").read_text())
    assert (meta["provider"], meta["model"]) == ("openai", "gpt-4.1")
