"""`vtcode sessions` after failed runs and with damaged files, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import HttpError, Reply, Step
from vtcode.testing.wire import cli_args, cli_env, server_for


def _run(vtcode: VtcodeRunner, ws: Path, step: Step) -> str:
    with server_for("chat", [step]) as server:
        result = vtcode.run(
            "exec", "--json", *cli_args("chat"), "a task", cwd=ws, env=cli_env("chat", server)
        )
    return str(events(result.stdout)[0]["thread_id"])


def _session_dir(vtcode: VtcodeRunner, session: str) -> Path:
    return vtcode.home / ".vtcode" / "sessions" / session


@pytest.fixture
def two_workspaces(tmp_path: Path) -> tuple[Path, Path]:
    """Two workspace directories."""
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    return first, second


def test_list_shows_how_each_run_ended(vtcode: VtcodeRunner, two_workspaces: tuple[Path, Path]) -> None:
    one, two = two_workspaces
    ok = _run(vtcode, one, Reply(text="done"))
    failed = _run(vtcode, two, HttpError(400, "bad request"))
    listed = vtcode.run("sessions", "list")
    assert listed.code == 0, listed.stderr
    header, *lines = listed.stdout.splitlines()
    assert header.split() == ["ID", "CREATED", "UPDATED", "TURNS", "STATUS", "WORKSPACE", "TITLE"]
    status = {line.split()[0]: line.split()[6] for line in lines}
    assert status == {ok: "completed", failed: "failed"}
    rows = json.loads(vtcode.run("sessions", "list", "--json").stdout)
    assert {row["id"]: row["status"] for row in rows} == {ok: "completed", failed: "failed"}


def test_list_filters_by_workspace(vtcode: VtcodeRunner, two_workspaces: tuple[Path, Path]) -> None:
    one, two = two_workspaces
    first = _run(vtcode, one, Reply(text="done"))
    _run(vtcode, two, Reply(text="done"))
    rows = json.loads(vtcode.run("sessions", "list", "--json", "--workspace", str(one)).stdout)
    assert [row["id"] for row in rows] == [first]
    empty = two.parent / "empty"
    empty.mkdir()
    none = vtcode.run("sessions", "list", "--workspace", str(empty))
    assert (none.code, none.stdout, none.stderr) == (0, "", f"no stored sessions for {empty}\n")
    missing = vtcode.run("sessions", "list", "--workspace", str(two.parent / "nope"))
    assert missing.code == 2
    assert "not a directory" in missing.stderr


def test_a_corrupt_meta_json_is_rebuilt_from_the_logs_with_a_plain_warning(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    good = _run(vtcode, tmp_path, Reply(text="done"))
    broken = _run(vtcode, tmp_path, Reply(text="done"))
    meta = _session_dir(vtcode, broken) / "meta.json"
    meta.write_text("{ this is not json")
    listed = vtcode.run("sessions", "list", "--json")
    assert listed.code == 0, listed.stderr
    rows = {row["id"]: row for row in json.loads(listed.stdout)}
    assert sorted(rows) == sorted([good, broken])
    assert {k: rows[broken][k] for k in ("workspace", "turns", "title", "model", "status")} == {
        "workspace": str(tmp_path.resolve()),
        "turns": 1,
        "title": "a task",
        "model": "gpt-4.1",
        "status": "completed",
    }
    assert listed.stderr == (
        f"warning: session {broken}: {meta} is damaged; its summary was rebuilt from the session's logs "
        "(rewritten at its next turn)\n"
    )


@pytest.mark.parametrize(
    ("tail", "notice"),
    [
        (b"garbage\n", "ignored a corrupt last line (line 4, 8 bytes, not JSON)"),
        (b'{"type":"mess', "ignored an incomplete last line (line 4, 13 bytes) left by an interrupted write"),
    ],
)
def test_a_bad_last_history_line_is_named_for_what_it_is(
    vtcode: VtcodeRunner, tmp_path: Path, tail: bytes, notice: str
) -> None:
    session = _run(vtcode, tmp_path, Reply(text="done"))
    history = _session_dir(vtcode, session) / "history.jsonl"
    with history.open("ab") as handle:
        handle.write(tail)
    shown = vtcode.run("sessions", "show", session)
    assert shown.code == 0, shown.stderr
    assert f"notice: {history}: {notice}" in shown.stderr
