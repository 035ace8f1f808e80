"""The in-process sandbox tests, run once more by a fresh unprivileged user (where the suite runs as root).

The command-session tests drive the sandbox from the test process itself, so they run as whoever runs
pytest; this runs their module again in a pytest of the unprivileged user's own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.exec.sandbox_helpers import needs_landlock
from tests.unprivileged import Identity, UnprivilegedUser

pytestmark = [needs_landlock]

_ROOT = Path(__file__).resolve().parents[2]
_MODULE = "tests/exec/test_sandbox_confinement.py"


def test_the_confinement_tests_pass_as_an_unprivileged_user(unprivileged_user: UnprivilegedUser) -> None:
    # Under /tmp: those tests expect their own temporary folder to be writable by commands.
    base = Path(tempfile.mkdtemp(prefix="vtcode-user-pytest-", dir="/tmp"))
    try:
        os.chown(base, unprivileged_user.uid, unprivileged_user.gid)
        identity = Identity(kind="unprivileged", user=unprivileged_user, home=base)
        argv = identity.module(
            "pytest", "-q", "-p", "no:cacheprovider", "--basetemp", str(base / "pytest"), _MODULE
        )
        proc = identity.popen(
            argv, cwd=_ROOT, env=identity.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        out, _ = proc.communicate(timeout=600)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    assert proc.returncode == 0, out
    assert " passed" in out.splitlines()[-1], out
    assert "skipped" not in out.splitlines()[-1], out
