"""A rewind that deletes the files a turn created removes the folders it made for them, and no other."""

from __future__ import annotations

from pathlib import Path

from tests.checkpoints.rewind_helpers import command_call, patch_call, rewind, turn, user_repo
from tests.conftest import VtcodeRunner

ADD = (
    "*** Begin Patch\n*** Add File: pkg/sub/new.py\n+x = 1\n"
    "*** Add File: src/extra.py\n+y = 2\n*** End Patch\n"
)
MAKE = "mkdir -p gen/out && echo g > gen/out/g.txt && echo l > src/made.txt && mkdir -p build/keep"


def _tree(ws: Path) -> list[str]:
    return sorted(
        str(p.relative_to(ws)) + ("/" if p.is_dir() else "")
        for p in ws.rglob("*")
        if not {".git", ".vtcode"} & set(p.relative_to(ws).parts)
    )


def test_folders_a_rewound_turn_made_go_and_the_users_stay(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"src/main.py": "print()\n"})
    (ws / "gen").mkdir()
    (ws / "gen" / "mine.txt").write_text("untracked, mine\n")
    before = _tree(ws)
    turn(vtcode, ws, "scaffold", [patch_call(ADD, "p1"), command_call(MAKE, "c1")], resume=False)
    assert (ws / "pkg" / "sub" / "new.py").exists()
    done = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert done.code == 0, done.stderr
    # build/keep/ held no file: snapshots never saw it, so it stays (as with Claude Code and Codex).
    assert _tree(ws) == sorted([*before, "build/", "build/keep/"])
    assert rewind(vtcode, ws, "--redo", "--yes").code == 0
    assert (ws / "pkg" / "sub" / "new.py").read_text() == "x = 1\n"
    assert (ws / "gen" / "out" / "g.txt").read_text() == "g\n"
