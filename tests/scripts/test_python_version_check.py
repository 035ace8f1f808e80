"""scripts/install and scripts/test refuse a Python older than 3.11 up front and rebuild an old .venv."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _older_python() -> str | None:
    """A real interpreter older than 3.11 on this machine (on PATH or under pyenv), if any."""
    candidates = [shutil.which(f"python3.{minor}") for minor in (10, 9, 8)]
    pyenv_root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    candidates += sorted(glob.glob(f"{pyenv_root}/versions/3.[0-9]*/bin/python3"), reverse=True)
    for candidate in candidates:
        if candidate is None:
            continue
        probe = subprocess.run(
            [candidate, "-c", "import sys; print(sys.version_info < (3, 11))"],
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.returncode == 0 and probe.stdout.strip() == "True":
            return candidate
    return None


OLDER_PYTHON = _older_python()
needs_older_python = pytest.mark.skipif(
    OLDER_PYTHON is None, reason="no Python older than 3.11 is installed here (python3.10, pyenv)"
)


def _version(python: str) -> str:
    done = subprocess.run(
        [python, "-c", 'import sys; print("%d.%d" % sys.version_info[:2])'],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the scripts beside empty lock files: enough to see what the scripts create."""
    root = tmp_path / "checkout"
    shutil.copytree(SCRIPTS, root / "scripts")
    (root / "requirements").mkdir()
    for lock in ("runtime.lock", "dev.lock"):
        (root / "requirements" / lock).write_text("")
    return root


def _run(checkout: Path, script: str, python: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": python}
    return subprocess.run(
        [str(checkout / "scripts" / script)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )


@pytest.mark.parametrize("script", ["install", "test"])
def test_a_python_reporting_3_10_is_refused_before_anything_is_created(
    checkout: Path, tmp_path: Path, script: str
) -> None:
    # The scripts only ask the interpreter for its version, so a stand-in answering "3.10" is one.
    shim = tmp_path / "bin" / "python3"
    shim.parent.mkdir()
    shim.write_text("#!/bin/sh\necho 3.10\n")
    shim.chmod(0o755)
    done = _run(checkout, script, str(shim))
    assert done.returncode == 1
    assert done.stderr == (
        f"vtcode needs Python ≥ 3.11; found 3.10 at {shim} (set PYTHON=/path/to/python3.11 or newer)\n"
    )
    assert sorted(p.name for p in checkout.iterdir()) == ["requirements", "scripts"]


def test_a_missing_interpreter_is_named(checkout: Path) -> None:
    done = _run(checkout, "install", "python-that-does-not-exist")
    assert done.returncode == 1
    assert "vtcode needs Python ≥ 3.11; 'python-that-does-not-exist' was not found" in done.stderr
    assert not (checkout / ".venv").exists()


@needs_older_python
def test_a_real_older_python_is_refused(checkout: Path) -> None:
    assert OLDER_PYTHON is not None
    done = _run(checkout, "install", OLDER_PYTHON)
    assert done.returncode == 1
    found = f"found {_version(OLDER_PYTHON)} at {shutil.which(OLDER_PYTHON)}"
    assert done.stderr.startswith(f"vtcode needs Python ≥ 3.11; {found}")
    assert not (checkout / ".venv").exists()


@needs_older_python
# It builds a real virtual environment: minutes on a loaded machine.
@pytest.mark.timeout(300)
def test_a_venv_of_an_older_python_is_rebuilt(checkout: Path) -> None:
    assert OLDER_PYTHON is not None
    subprocess.run([OLDER_PYTHON, "-m", "venv", "--without-pip", str(checkout / ".venv")], check=True)
    old = _version(OLDER_PYTHON)
    # The copied checkout has no project to install, so the run stops after the venv is rebuilt.
    done = _run(checkout, "install", sys.executable)
    assert f"rebuilding .venv: it was made with Python {old}, vtcode needs Python ≥ 3.11" in done.stderr
    assert _version(str(checkout / ".venv" / "bin" / "python")) == _version(sys.executable)
