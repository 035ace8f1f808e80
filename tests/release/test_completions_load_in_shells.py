"""The completion scripts load in real bash, zsh and fish and complete `vtcode ex<TAB>` to `exec`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.release.shells import SHELLS, completions, require

FILE_NAMES = {"bash": "vtcode.bash", "zsh": "_vtcode", "fish": "vtcode.fish"}


def _script(tmp_path: Path, shell: str) -> Path:
    out = subprocess.run(
        [sys.executable, "-m", "vtcode", "completions", shell], capture_output=True, text=True, check=True
    ).stdout
    path = tmp_path / FILE_NAMES[shell]
    path.write_text(out)
    return path


@pytest.mark.parametrize("shell", SHELLS)
def test_ex_tab_completes_to_exec(tmp_path: Path, shell: str) -> None:
    require(shell)
    work = tmp_path / "work"
    work.mkdir()
    assert completions(shell, _script(tmp_path, shell), "ex", work) == ["exec"]


@pytest.mark.parametrize("shell", SHELLS)
def test_se_tab_completes_to_sessions(tmp_path: Path, shell: str) -> None:
    require(shell)
    work = tmp_path / "work"
    work.mkdir()
    assert completions(shell, _script(tmp_path, shell), "se", work) == ["sessions"]
