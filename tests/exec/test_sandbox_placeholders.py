"""Placeholders for protected files that do not exist yet: they hold, and nobody sees or keeps them.

Each test runs as the current user and again as a fresh unprivileged one (the `as_user` fixture), who
owns the workspace.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.exec.sandbox_helpers import needs_landlock, needs_userns
from tests.unprivileged import Identity

pytestmark = [needs_landlock, needs_userns]


def _repository(as_user: Identity) -> Path:
    path = as_user.tmpdir(parent="/tmp") / "ws"
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / "a.py").write_text("print('a')\n")
    return path


def test_a_missing_protected_file_cannot_be_created_and_its_placeholder_is_invisible(
    as_user: Identity,
) -> None:
    ws = _repository(as_user)
    as_user.chown_tree(ws.parent)
    script = (
        "echo '[agent]' > vtcode.toml 2>/dev/null; echo toml=$?; "
        "echo '{}' > .mcp.json 2>/dev/null; echo mcp=$?; "
        "git status --porcelain --untracked-files=all; rg --files --hidden --glob '!.git'"
    )
    done = as_user.vtcode("sandbox", "--sandbox", "workspace-write", "--", "sh", "-c", script, cwd=ws)
    lines = done.stdout.splitlines()
    assert [line.split("=")[0] for line in lines[:2]] == ["toml", "mcp"], done.stderr
    assert "toml=0" not in lines
    assert "mcp=0" not in lines
    # Neither git nor a file listing sees the placeholders: only the user's own file.
    assert lines[2:] == ["?? a.py", "a.py"], done.stderr
    # Once the command is over, nothing of them is left in the workspace.
    assert sorted(p.name for p in ws.iterdir()) == [".git", ".vtcode", "a.py"]


def test_a_placeholder_a_killed_run_left_is_read_as_absent_and_removed(as_user: Identity) -> None:
    ws = _repository(as_user)
    (ws / "vtcode.toml").mkdir()  # what a run killed while a command ran leaves behind
    (ws / ".mcp.json").mkdir()
    as_user.chown_tree(ws.parent)
    done = as_user.vtcode("sandbox", "--sandbox", "workspace-write", "--", "true", cwd=ws)
    assert done.code == 0, done.stderr
    assert "vtcode.toml" not in done.stderr
    assert ".mcp.json" not in done.stderr
    assert not (ws / "vtcode.toml").exists()
    assert not (ws / ".mcp.json").exists()
