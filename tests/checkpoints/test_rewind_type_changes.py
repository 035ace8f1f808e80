"""A command that turns a file into a folder (or back) is rewound too, and a blocked restore says why."""

from __future__ import annotations

from pathlib import Path

from tests.checkpoints.rewind_helpers import command_call, rewind, turn, user_repo
from tests.conftest import VtcodeRunner

SWAP = "rm x && mkdir x && echo y > x/y && rm -r d && echo f > d"


def _files(ws: Path) -> dict[str, str]:
    return {
        str(p.relative_to(ws)): p.read_text()
        for p in sorted(ws.rglob("*"))
        if p.is_file() and not {".git", ".vtcode"} & set(p.relative_to(ws).parts)
    }


def test_a_file_made_a_folder_and_a_folder_made_a_file_come_back(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {"x": "file x\n", "d/one": "1\n"})
    turn(vtcode, ws, "swap kinds", [command_call(SWAP, "c1")], resume=False)
    assert (ws / "x" / "y").exists()
    done = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert done.code == 0, done.stderr
    assert _files(ws) == {"x": "file x\n", "d/one": "1\n"}
    redone = rewind(vtcode, ws, "--redo", "--yes")
    assert redone.code == 0, redone.stderr
    assert _files(ws) == {"x/y": "y\n", "d": "f\n"}


def test_a_folder_holding_new_files_blocks_the_restore_with_a_clear_error(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {"x": "file x\n", "d/one": "1\n"})
    turn(vtcode, ws, "swap kinds", [command_call(SWAP, "c1")], resume=False)
    (ws / "x" / "mine.txt").write_text("my notes\n")
    blocked = rewind(vtcode, ws, "--to", "1", "--code", "--yes", "--force")
    assert blocked.code == 1, blocked.stderr
    assert "could not restore x: x is a folder with files in it now; move them away" in blocked.stderr
    assert "internal error" not in blocked.stderr
    assert (ws / "x" / "mine.txt").read_text() == "my notes\n"
    again = rewind(vtcode, ws, "--to", "1", "--code", "--yes", "--force")
    assert "internal error" not in again.stderr, "the interrupted restore is reported, not a crash"
    assert "could not restore x" in again.stderr
    (ws / "x" / "mine.txt").rename(tmp_path / "mine.txt")
    finished = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert finished.code == 0, finished.stderr
    assert _files(ws) == {"x": "file x\n", "d/one": "1\n"}
