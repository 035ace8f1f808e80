"""A conversation rewind forks the session: the branch starts before the turn, the old one stays."""

from __future__ import annotations

import json
from pathlib import Path

from tests.checkpoints.rewind_helpers import patch_call, rewind, turn, user_repo
from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"


def _sent(vtcode: VtcodeRunner, ws: Path, session: str, prompt: str) -> str:
    with server_for("chat", [Reply(text="ok")]) as server:
        done = vtcode.run(
            "exec", *cli_args("chat"), "--resume", session, prompt, cwd=ws, env=cli_env("chat", server)
        )
        assert done.code == 0, done.stderr
        return json.dumps(json.loads(server.requests[0].body)["messages"])


def test_a_conversation_rewind_forks_and_the_old_branch_stays_resumable(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n"})
    turn(vtcode, ws, "first prompt", [], resume=False)
    turn(vtcode, ws, "second prompt edits", [patch_call(PATCH, "p1")])
    listed = json.loads(rewind(vtcode, ws, "--list", "--json").stdout)
    old = listed["session"]
    assert [t["prompt"] for t in listed["turns"]] == ["first prompt", "second prompt edits"]
    assert listed["turns"][1]["files"] == ["a.py"]
    done = rewind(vtcode, ws, "--to", "2", "--conversation", "--yes", "--json")
    assert done.code == 0, done.stderr
    report = json.loads(done.stdout)
    fork = report["fork"]
    assert fork
    assert fork != old
    assert report["prompt"] == "second prompt edits", "the rewound prompt comes back to the user"
    assert (ws / "a.py").read_text() == "x = 2\n", "a conversation-only rewind leaves the files"
    branch = _sent(vtcode, ws, fork, "on the branch")
    assert "first prompt" in branch
    assert "second prompt edits" not in branch
    original = _sent(vtcode, ws, old, "on the old branch")
    assert "first prompt" in original
    assert "second prompt edits" in original


def test_both_restores_the_files_and_forks(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n"})
    turn(vtcode, ws, "edit it", [patch_call(PATCH, "p1")], resume=False)
    done = rewind(vtcode, ws, "--to", "1", "--yes")
    assert done.code == 0, done.stderr
    assert (ws / "a.py").read_text() == "x = 1\n"
    assert "the conversation continues in session" in done.stdout
    assert "the rewound prompt was:\nedit it" in done.stdout


def test_an_unknown_turn_is_a_clear_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n"})
    turn(vtcode, ws, "only turn", [], resume=False)
    done = rewind(vtcode, ws, "--to", "7", "--yes")
    assert done.code == 2, done.stderr
    assert "no checkpoint for turn 7 (turns: 1)" in done.stderr
    assert "Traceback" not in done.stderr


def test_redo_after_a_rewind_of_code_and_conversation_puts_the_files_back(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n"})
    turn(vtcode, ws, "edit it", [patch_call(PATCH, "p1")], resume=False)
    done = rewind(vtcode, ws, "--to", "1", "--yes", "--json")
    assert done.code == 0, done.stderr
    assert (ws / "a.py").read_text() == "x = 1\n"
    # The fork is now the workspace's latest session: the redo point must have come with it.
    redone = rewind(vtcode, ws, "--redo", "--yes")
    assert redone.code == 0, redone.stderr
    assert (ws / "a.py").read_text() == "x = 2\n"
    sent = _sent(vtcode, ws, json.loads(done.stdout)["fork"], "after the redo")
    assert "edit it" not in sent, "the redo puts back files, not the rewound conversation"
