"""A session whose meta.json is gone or torn stays listed and resumable: its logs rebuild the summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for


def _first_session(vtcode: VtcodeRunner, ws: Path) -> str:
    with server_for("chat", [Reply(text="the first answer")]) as server:
        result = vtcode.run(
            "exec",
            "--json",
            *cli_args("chat"),
            "remember the word pelican",
            cwd=ws,
            env=cli_env("chat", server),
        )
    assert result.code == 0, result.stderr
    return str(events(result.stdout)[0]["thread_id"])


@pytest.mark.parametrize("damage", ["removed", "torn"])
def test_resume_after_meta_json_is_lost_sends_the_whole_history(
    vtcode: VtcodeRunner, tmp_path: Path, damage: str
) -> None:
    session = _first_session(vtcode, tmp_path)
    meta = vtcode.home / ".vtcode" / "sessions" / session / "meta.json"
    if damage == "removed":
        meta.unlink()  # what the old "fix or remove that file" hint told the user to do
    else:
        meta.write_bytes(meta.read_bytes()[:40])

    shown = vtcode.run("sessions", "show", session)
    assert shown.code == 0, shown.stderr
    assert f"workspace {tmp_path.resolve()}" in shown.stdout

    with server_for("chat", [Reply(text="pelican")]) as server:
        result = vtcode.run(
            "exec",
            *cli_args("chat"),
            "--resume",
            session[:8],
            "which word?",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
        bodies = [request.json() for request in server.requests]
    assert result.code == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert f"warning: session {session}: {meta} is " in result.stderr
    assert len(bodies) == 1
    sent = json.dumps(bodies[0]["messages"])
    assert "remember the word pelican" in sent
    assert "the first answer" in sent
    rewritten = json.loads(meta.read_text())
    assert (rewritten["id"], rewritten["workspace"], rewritten["turns"], rewritten["title"]) == (
        session,
        str(tmp_path.resolve()),
        2,
        "remember the word pelican",
    )
