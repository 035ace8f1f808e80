"""A session file written by a newer vtcode is refused with "upgrade vtcode", never read as damaged.

A newer vtcode that adds a field raises the file's `schema_version`, but the strict decoder fails on
the new field first. These tests write what such a version would (a higher version and a field this one
does not know) and check what the user is told, and that nothing is rebuilt or overwritten.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for


def _first_session(vtcode: VtcodeRunner, ws: Path) -> Path:
    with server_for("chat", [Reply(text="the first answer")]) as server:
        result = vtcode.run("exec", "--json", *cli_args("chat"), "hello", cwd=ws, env=cli_env("chat", server))
    assert result.code == 0, result.stderr
    return vtcode.home / ".vtcode" / "sessions" / str(events(result.stdout)[0]["thread_id"])


def _resume(vtcode: VtcodeRunner, ws: Path, session: Path) -> tuple[int, str, int]:
    """Exit code, stderr, and how many requests reached the model."""
    with server_for("chat", [Reply(text="second")]) as server:
        result = vtcode.run(
            "exec", *cli_args("chat"), "--resume", session.name, "again", cwd=ws, env=cli_env("chat", server)
        )
        sent = len(server.requests)
    assert "Traceback" not in result.stderr
    return result.code, result.stderr, sent


def test_a_summary_from_a_newer_vtcode_is_refused_and_left_as_it_is(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    session = _first_session(vtcode, tmp_path)
    meta = session / "meta.json"
    newer = json.loads(meta.read_text()) | {"schema_version": 2, "labels": ["work"]}
    meta.write_text(json.dumps(newer))
    before = meta.read_bytes()

    listed = vtcode.run("sessions", "list")
    assert listed.code == 0, listed.stderr
    assert "schema_version 2, this vtcode reads up to 1" in listed.stderr
    assert "upgrade vtcode" in listed.stderr
    assert "rebuilt" not in listed.stderr

    code, stderr, sent = _resume(vtcode, tmp_path, session)
    assert code != 0
    assert "upgrade vtcode" in stderr
    assert sent == 0
    assert meta.read_bytes() == before


def test_a_history_record_from_a_newer_vtcode_asks_for_an_upgrade(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    session = _first_session(vtcode, tmp_path)
    history = session / "history.jsonl"
    last = json.loads(history.read_text().splitlines()[-1])
    record = last | {"schema_version": 2, "seq": last["seq"] + 1, "pinned": True}
    with history.open("a") as file:
        file.write(json.dumps(record) + "\n")
    before = history.read_bytes()

    code, stderr, sent = _resume(vtcode, tmp_path, session)
    assert code != 0
    assert "has schema_version 2, this vtcode reads up to 1" in stderr
    assert "written by a newer vtcode; upgrade vtcode" in stderr
    assert "damaged" not in stderr
    assert sent == 0
    assert history.read_bytes() == before


def test_a_plan_from_a_newer_vtcode_is_reported_as_newer(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    session = _first_session(vtcode, tmp_path)
    plan = {"schema_version": 2, "explanation": "", "steps": [], "owner": "me"}
    (session / "plan.json").write_text(json.dumps(plan))

    code, stderr, sent = _resume(vtcode, tmp_path, session)
    assert code == 0, stderr
    assert sent == 1
    assert "the stored plan is not used" in stderr
    assert "schema_version 2, this vtcode reads up to 1" in stderr
    assert "upgrade vtcode" in stderr
