"""Without git on PATH, vtcode's own edits are still checkpointed, and the limitation is said."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tests.checkpoints.rewind_helpers import patch_call, rewind, turn
from tests.conftest import VtcodeRunner

PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"


def test_without_git_pre_images_still_rewind_and_commands_are_said_not_covered(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("x = 1\n")
    no_git = {"PATH": os.path.dirname(sys.executable)}
    assert not any(Path(d, "git").exists() for d in no_git["PATH"].split(os.pathsep))
    done, _ = turn(vtcode, ws, "edit", [patch_call(PATCH, "p1")], resume=False, env=no_git)
    assert "changes made by commands are not captured" in done.stderr
    listed = rewind(vtcode, ws, "--list", env=no_git)
    assert "changes made by commands are not captured" in listed.stdout
    restored = rewind(vtcode, ws, "--to", "1", "--code", "--yes", env=no_git)
    assert restored.code == 0, restored.stderr
    assert (ws / "a.py").read_text() == "x = 1\n"
    assert "changes made by commands are not captured" in restored.stderr
