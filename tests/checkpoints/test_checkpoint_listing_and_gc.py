"""`vtcode sessions show` lists checkpoints with their files; `vtcode checkpoints gc` bounds the disk."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.checkpoints.rewind_helpers import command_call, patch_call, turn, user_repo
from tests.conftest import VtcodeRunner

PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"


def test_sessions_show_lists_each_turns_changed_files(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n", "b.txt": "b\n"})
    turn(vtcode, ws, "edit a", [patch_call(PATCH, "p1")], resume=False)
    turn(vtcode, ws, "drop b", [command_call("rm b.txt && echo n > new.txt", "c1")])
    session = json.loads(vtcode.run("sessions", "list", "--json").stdout)[0]["id"]
    shown = vtcode.run("sessions", "show", session)
    assert shown.code == 0, shown.stderr
    assert "checkpoints (2; `vtcode rewind --to TURN` restores):" in shown.stdout
    assert "turn   1  edit a\n          files changed: a.py\n" in shown.stdout
    assert "turn   2  drop b\n          files changed: b.txt, new.txt\n" in shown.stdout


def test_gc_drops_idle_sessions_checkpoints_and_prunes_their_snapshots(
    vtcode: VtcodeRunner, tmp_path: Path, isolated_home: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {"a.txt": "a\n"})
    (ws / "big.bin").write_bytes(os.urandom(1024 * 1024))
    turn(vtcode, ws, "churn", [command_call("head -c 1000000 /dev/urandom > big.bin", "c1")], resume=False)
    home = isolated_home / ".vtcode"
    checkpoints = home / "checkpoints"
    [session_dir] = list(checkpoints.iterdir())
    # The session went idle long ago: its meta says so.
    meta = home / "sessions" / session_dir.name / "meta.json"
    info = json.loads(meta.read_text())
    info["updated_at"] = time.time() - 30 * 86400
    meta.write_text(json.dumps(info))
    done = vtcode.run("checkpoints", "gc", cwd=ws)
    assert done.code == 0, done.stderr
    assert "dropped the checkpoints of 1 idle session(s)" in done.stdout
    assert not session_dir.exists()
    assert not any((home / "snapshots").iterdir()), "no session refers to the snapshots any more"


def test_gc_keeps_what_a_live_session_can_still_rewind(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"b.txt": "bee\n"})
    turn(vtcode, ws, "drop b", [command_call("rm b.txt", "c1")], resume=False)
    assert vtcode.run("checkpoints", "gc", cwd=ws).code == 0
    done = vtcode.run("rewind", "--to", "1", "--code", "--yes", cwd=ws)
    assert done.code == 0, done.stderr
    assert (ws / "b.txt").read_text() == "bee\n"


def test_over_the_quota_older_sessions_checkpoints_are_dropped(
    vtcode: VtcodeRunner, tmp_path: Path, isolated_home: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {"a.txt": "a\n"})
    noise = "head -c 1500000 /dev/urandom > noise.bin"
    turn(vtcode, ws, "older work", [command_call(noise, "c1")], resume=False)
    checkpoints = isolated_home / ".vtcode" / "checkpoints"
    [older] = list(checkpoints.iterdir())
    done, _ = turn(
        vtcode, ws, "newer work", [command_call("echo b > b.txt", "c1")], resume=False,
        args=["-c", "checkpoints.quota_mb=1"],
    )  # fmt: skip
    assert "over the 1 MiB quota: dropped the checkpoints of 1 older session(s)" in done.stderr
    assert not older.exists()
    [newer] = list(checkpoints.iterdir())
    assert newer != older
    assert vtcode.run("rewind", "--to", "1", "--code", "--yes", cwd=ws).code == 0
    assert not (ws / "b.txt").exists(), "the running session's own checkpoints were kept"
