"""Fixtures of the adapter's tests: this checkout, a real vtcode release archive, a network namespace."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
# What a release archive is built from: a change to any of these builds a new one.
RELEASE_INPUTS = (
    "src/vtcode",
    "pyproject.toml",
    "requirements/runtime.lock",
    "requirements/release.lock",
    "scripts/release.py",
    "scripts/verify_release.py",
)


def _inputs_digest() -> str:
    digest = hashlib.sha256()
    for name in RELEASE_INPUTS:
        path = REPO / name
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            if "__pycache__" in file.parts:
                continue
            digest.update(file.relative_to(REPO).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@pytest.fixture(scope="session")
def release_archive() -> Path:
    """$VTCODE_RELEASE_ARCHIVE, else this checkout's release archive, built by scripts/release.py once per
    change of its inputs and kept under .cache/harbor-release (the build takes minutes: PyInstaller)."""
    if given := os.environ.get("VTCODE_RELEASE_ARCHIVE"):
        return Path(given).resolve()
    cache = REPO / ".cache" / "harbor-release"
    out = cache / _inputs_digest()
    archives = sorted(out.glob("vtcode-*.tar.gz"))
    if archives:
        return archives[0]
    if cache.is_dir():
        shutil.rmtree(cache)  # older builds: one archive is kept
    # The release locks are for Python 3.11 (the project's own interpreter), not this 3.12 venv.
    python = os.environ.get("VTCODE_RELEASE_PYTHON") or shutil.which("python3") or sys.executable
    started = time.monotonic()
    proc = subprocess.run(
        [python, "scripts/release.py", "--out-dir", str(out), "--work-dir", str(cache / "work")],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, f"release build failed:\n{proc.stderr[-4000:]}"
    shutil.rmtree(cache / "work", ignore_errors=True)
    print(f"\nharbor: built {proc.stdout.strip()} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return Path(proc.stdout.strip())


def network_namespace_problem() -> str | None:
    """Why `unshare -n` with `lo` up cannot run here, or None."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "`unshare` or `ip` is missing"
    proc = subprocess.run(
        ["unshare", "-n", "ip", "link", "set", "lo", "up"], capture_output=True, text=True, check=False
    )
    return None if proc.returncode == 0 else f"no network namespace: {proc.stderr.strip()}"
