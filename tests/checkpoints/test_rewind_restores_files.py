"""`vtcode rewind` puts back what vtcode's edits and commands changed, and nothing else."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.checkpoints.rewind_helpers import command_call, patch_call, rewind, turn, user_repo
from tests.conftest import VtcodeRunner

A_PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"
A_BEFORE = b"x = 1\r\nkeep\x00bytes\n"


def _workspace(tmp_path: Path) -> Path:
    ws = user_repo(tmp_path / "ws", {"b.txt": "bee\n", "c": "sea\n"})
    (ws / "a.py").write_bytes(b"x = 1\n")
    return ws


def _two_turns(vtcode: VtcodeRunner, ws: Path) -> None:
    turn(vtcode, ws, "edit a.py", [patch_call(A_PATCH, "p1")], resume=False)
    turn(vtcode, ws, "shuffle files", [command_call("rm b.txt && mv c d", "c1")])


def test_a_patched_file_comes_back_byte_exact_with_its_mode(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    (ws / "a.py").write_bytes(b"x = 1\n" + A_BEFORE)
    os.chmod(ws / "a.py", 0o751)
    turn(vtcode, ws, "edit a.py", [patch_call(A_PATCH, "p1")], resume=False)
    assert (ws / "a.py").read_bytes().startswith(b"x = 2\n")
    preview = rewind(vtcode, ws, "--to", "1", "--code")
    assert "modify a.py" in " ".join(preview.stdout.split()), preview.stdout
    assert (ws / "a.py").read_bytes().startswith(b"x = 2\n"), "a preview changes nothing"
    done = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert done.code == 0, done.stderr
    assert (ws / "a.py").read_bytes() == b"x = 1\n" + A_BEFORE
    assert os.stat(ws / "a.py").st_mode & 0o7777 == 0o751


def test_a_commands_delete_and_move_are_undone(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    _two_turns(vtcode, ws)
    assert not (ws / "b.txt").exists()
    assert (ws / "d").exists()
    done = rewind(vtcode, ws, "--to", "2", "--code", "--yes")
    assert done.code == 0, done.stderr
    assert (ws / "b.txt").read_text() == "bee\n"
    assert (ws / "c").read_text() == "sea\n"
    assert not (ws / "d").exists()
    assert (ws / "a.py").read_text() == "x = 2\n", "turn 1's edit is not part of a rewind to turn 2"


def test_a_hand_edit_is_a_conflict_and_is_kept(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    _two_turns(vtcode, ws)
    (ws / "a.py").write_text("x = 'mine'\n")
    done = rewind(vtcode, ws, "--to", "1", "--code", "--yes", "--json")
    assert done.code == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["kept_conflicts"] == ["a.py"]
    assert (ws / "a.py").read_text() == "x = 'mine'\n"
    assert (ws / "b.txt").read_text() == "bee\n", "the other paths are restored"
    forced = rewind(vtcode, ws, "--to", "1", "--code", "--yes", "--force")
    assert forced.code == 0, forced.stderr
    assert (ws / "a.py").read_text() == "x = 1\n"


def test_an_untracked_file_from_before_the_checkpoint_survives(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    (ws / "notes.txt").write_text("my notes\n")
    turn(
        vtcode,
        ws,
        "make files",
        [command_call("echo new > made.txt && echo more >> notes.txt", "c1")],
        resume=False,
    )
    done = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert done.code == 0, done.stderr
    assert not (ws / "made.txt").exists()
    assert (ws / "notes.txt").read_text() == "my notes\n", "restored, never deleted"


def test_redo_returns_the_files_to_their_post_turn_state(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    _two_turns(vtcode, ws)
    assert rewind(vtcode, ws, "--to", "1", "--code", "--yes").code == 0
    assert (ws / "a.py").read_text() == "x = 1\n"
    assert (ws / "b.txt").exists()
    done = rewind(vtcode, ws, "--redo", "--yes")
    assert done.code == 0, done.stderr
    assert (ws / "a.py").read_text() == "x = 2\n"
    assert not (ws / "b.txt").exists()
    assert not (ws / "c").exists()
    assert (ws / "d").read_text() == "sea\n"


def test_the_model_is_told_which_files_a_code_rewind_changed(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    _two_turns(vtcode, ws)
    assert rewind(vtcode, ws, "--to", "2", "--code", "--yes").code == 0
    _, bodies = turn(vtcode, ws, "what now?", [])
    sent = json.dumps(bodies[0]["messages"])
    assert "rewound the workspace files" in sent
    for path in ("b.txt", "c", "d"):
        assert f"- {path}" in sent
    _, later = turn(vtcode, ws, "and now?", [])
    assert json.dumps(later[0]["messages"]).count("rewound the workspace files") == 1, "told once"


def test_a_workspace_that_is_no_git_repository_gets_tree_snapshots_too(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = tmp_path / "plain"
    ws.mkdir()
    (ws / "b.txt").write_text("bee\n")
    (ws / "c").write_text("sea\n")
    turn(vtcode, ws, "shuffle", [command_call("rm b.txt && mv c d", "c1")], resume=False)
    done = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert done.code == 0, done.stderr
    assert (ws / "b.txt").read_text() == "bee\n"
    assert (ws / "c").read_text() == "sea\n"
    assert not (ws / "d").exists()
    assert not (ws / ".git").exists(), "no repository is created in the workspace"


def test_a_file_a_command_changed_keeps_its_permission_bits(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    (ws / "secret.env").write_text("key=1\n")
    os.chmod(ws / "secret.env", 0o600)
    os.chmod(ws / "b.txt", 0o750)
    turn(
        vtcode,
        ws,
        "touch up",
        [command_call("echo key=2 >> secret.env && echo more >> b.txt", "c1")],
        resume=False,
    )
    done = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert done.code == 0, done.stderr
    assert (ws / "secret.env").read_text() == "key=1\n"
    assert os.stat(ws / "secret.env").st_mode & 0o7777 == 0o600, "a private file stays private"
    assert (ws / "b.txt").read_text() == "bee\n"
    assert os.stat(ws / "b.txt").st_mode & 0o7777 == 0o750
    assert rewind(vtcode, ws, "--redo", "--yes").code == 0
    assert os.stat(ws / "secret.env").st_mode & 0o7777 == 0o600


def test_the_report_says_which_hand_edits_were_kept_and_which_overwritten(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = _workspace(tmp_path)
    _two_turns(vtcode, ws)
    (ws / "a.py").write_text("x = 'mine'\n")
    preview = rewind(vtcode, ws, "--to", "1", "--code")
    flag = "modify a.py  CONFLICT: edited by hand since vtcode wrote it;"
    assert f"{flag} kept unless --force" in preview.stdout
    kept = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert "kept 1 file edited by hand: a.py (--force overwrites it)" in kept.stdout, kept.stdout
    forced = rewind(vtcode, ws, "--to", "1", "--code", "--yes", "--force")
    assert f"{flag} overwritten" in forced.stdout
    assert "kept" not in forced.stdout, forced.stdout
    assert (ws / "a.py").read_text() == "x = 1\n"
