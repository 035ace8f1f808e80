"""kill -9 of `vtcode rewind` mid-restore: every file old or restored, and the next rewind completes it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.checkpoints.rewind_helpers import command_call, rewind, turn, user_repo
from tests.conftest import VtcodeRunner

FILES = 1200
OLD = "old line\n" * 400
NEW = "new line\n" * 300


def _name(n: int) -> str:
    return f"d{n // 100:02d}/f{n:04d}.txt"


def _restored(ws: Path) -> int:
    return sum((ws / _name(n)).read_text() == OLD for n in range(FILES))


def test_a_restore_killed_mid_way_is_completed_by_the_next_rewind(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {_name(n): OLD for n in range(FILES)})
    (ws / "new.src").write_text(NEW)
    copy = "import glob, shutil; [shutil.copy('new.src', f) for f in glob.glob('d*/f*.txt')]"
    rewrite = f'{sys.executable} -c "{copy}"'
    turn(vtcode, ws, "rewrite everything", [command_call(rewrite, "c1")], resume=False)
    assert _restored(ws) == 0
    last = ws / _name(FILES - 1)
    proc = subprocess.Popen(
        vtcode.command("rewind", "--to", "1", "--code", "--yes"),
        cwd=ws,
        env=vtcode.env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        ends = time.monotonic() + 120
        first = ws / _name(0)
        while first.read_text() != OLD and proc.poll() is None and time.monotonic() < ends:
            time.sleep(0.0005)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    restored = _restored(ws)
    assert 0 < restored < FILES, "the kill landed while files were being restored"
    for n in range(FILES):
        assert (ws / _name(n)).read_text() in (OLD, NEW), "no half-written file"
    assert last.read_text() == NEW
    again = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert again.code == 0, again.stderr
    assert "completed a restore that was interrupted" in again.stdout
    assert _restored(ws) == FILES
    leftovers = [p for p in ws.rglob("*") if p.name.endswith(".vtcode-restore")]
    assert leftovers == []
