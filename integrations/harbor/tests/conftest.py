"""Fixtures of the adapter's tests: this checkout, a real vtcode release archive, a network namespace."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from release_cache import REPO
from release_cache import release_archive as cached_release_archive

__all__ = ["REPO", "network_namespace_problem"]


@pytest.fixture(scope="session")
def release_archive() -> Path:
    """$VTCODE_RELEASE_ARCHIVE (set by scripts/test), else this checkout's archive, built when needed."""
    if given := os.environ.get("VTCODE_RELEASE_ARCHIVE"):
        return Path(given).resolve()
    return cached_release_archive()


def network_namespace_problem() -> str | None:
    """Why `unshare -n` with `lo` up cannot run here, or None."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "`unshare` or `ip` is missing"
    proc = subprocess.run(
        ["unshare", "-n", "ip", "link", "set", "lo", "up"], capture_output=True, text=True, check=False
    )
    return None if proc.returncode == 0 else f"no network namespace: {proc.stderr.strip()}"
