"""This checkout's vtcode release archive for the adapter's tests, built by scripts/release.py once per
change of its inputs and kept under .cache/harbor-release (a PyInstaller build takes minutes).

`python release_cache.py` prints the archive's path (building it first when needed, timed on stderr).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

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


def inputs_digest() -> str:
    """A digest of every file the release is built from."""
    digest = hashlib.sha256()
    for name in RELEASE_INPUTS:
        path = REPO / name
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            if "__pycache__" in file.parts:
                continue
            digest.update(file.relative_to(REPO).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def release_archive() -> Path:
    """The cached archive of these sources, built when missing (older builds are removed)."""
    cache = REPO / ".cache" / "harbor-release"
    out = cache / inputs_digest()
    archives = sorted(out.glob("vtcode-*.tar.gz"))
    if archives:
        return archives[0]
    if cache.is_dir():
        shutil.rmtree(cache)
    # The release locks are for Python 3.11 (the project's own interpreter), not the adapter's 3.12.
    python = os.environ.get("VTCODE_RELEASE_PYTHON") or shutil.which("python3") or sys.executable
    started = time.monotonic()
    proc = subprocess.run(
        [python, "scripts/release.py", "--out-dir", str(out), "--work-dir", str(cache / "work")],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"release build failed:\n{proc.stderr[-4000:]}")
    shutil.rmtree(cache / "work", ignore_errors=True)
    archive = Path(proc.stdout.strip())
    print(f"harbor: built {archive.name} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return archive


if __name__ == "__main__":
    try:
        print(release_archive())
    except (RuntimeError, OSError) as exc:
        print(f"harbor: {exc}", file=sys.stderr)
        sys.exit(1)
