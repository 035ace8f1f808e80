"""`man -l` renders the generated vtcode(1) page with every command in it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.release.shells import require


def render(page: Path) -> subprocess.CompletedProcess[str]:
    """`man -l PAGE` as plain text, the way a person reads it, without a pager."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "MANPAGER": "cat", "MANWIDTH": "100"}
    return subprocess.run(
        ["man", "-l", str(page)],
        capture_output=True,
        text=True,
        env={**env, "LC_ALL": "C.UTF-8"},
        check=False,
    )


def test_man_l_renders_the_generated_page(tmp_path: Path) -> None:
    require("man")
    page = tmp_path / "vtcode.1"
    page.write_text(
        subprocess.run(
            [sys.executable, "-m", "vtcode", "man"], capture_output=True, text=True, check=True
        ).stdout
    )
    result = render(page)
    assert result.returncode == 0, result.stderr
    assert result.stdout.lstrip().startswith("VTCODE(1)")
    for text in ("NAME", "vtcode - a terminal coding agent", "SYNOPSIS", "vtcode exec", "vtcode completions"):
        assert text in result.stdout
