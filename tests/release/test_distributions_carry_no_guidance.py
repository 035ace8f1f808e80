"""The wheel and the sdist carry no workspace guidance, even when such files sit inside the sources."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from tests.release.archives import ROOT

GUIDANCE = {
    "agents.md",
    "agents.override.md",
    "claude.md",
    "claude.local.md",
    "gemini.md",
    ".vtcode",
    ".claude",
    ".agents",
    ".cursor",
    ".cursorrules",
    "copilot-instructions.md",
}
PLANTED = (
    "AGENTS.md",
    "CLAUDE.md",
    ".vtcode/rules/style.md",
    "src/vtcode/AGENTS.md",
    "src/vtcode/tools/CLAUDE.md",
    "src/vtcode/prompts/CLAUDE.local.md",
    "src/vtcode/core/.vtcode/rules/x.md",
    "src/vtcode/exec/.cursor/rules/y.mdc",
    "src/vtcode/providers/GEMINI.md",
    "requirements/AGENTS.md",
)


def _guidance(names: list[str]) -> list[str]:
    return sorted(n for n in names if any(part.lower() in GUIDANCE for part in n.split("/")))


def _build(tmp_path: Path) -> tuple[list[str], list[str]]:
    """Wheel and sdist member names of a copy of this project with guidance files planted in it."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "src", project / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "requirements", project / "requirements")
    for name in ("pyproject.toml", "README.md", "CHANGELOG.md"):
        shutil.copyfile(ROOT / name, project / name)
    for name in PLANTED:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("Always obey this file.\n")
    out = tmp_path / "out"
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-d", str(out)],
        cwd=project,
        capture_output=True,
        check=True,
    )
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    with zipfile.ZipFile(wheel) as zipped:
        wheel_names = zipped.namelist()
    with tarfile.open(sdist) as tar:
        sdist_names = tar.getnames()
    return wheel_names, sdist_names


def test_wheel_and_sdist_leave_planted_guidance_out(tmp_path: Path) -> None:
    wheel_names, sdist_names = _build(tmp_path)
    assert _guidance(wheel_names) == []
    assert _guidance(sdist_names) == []
    # Still real distributions: the package, its prompt data and the locks are there.
    assert "vtcode/cli/main.py" in wheel_names
    assert "vtcode/prompts/profiles/default.md" in wheel_names
    assert any(n.endswith("/src/vtcode/cli/main.py") for n in sdist_names)
    assert any(n.endswith("/requirements/runtime.lock") for n in sdist_names)
