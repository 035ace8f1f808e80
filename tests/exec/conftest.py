"""Fixtures of the command-session tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def outside() -> Iterator[Path]:
    """A writable folder outside the workspace and the temp folders (under /var/tmp)."""
    if not os.access("/var/tmp", os.W_OK):
        pytest.skip("/var/tmp is not writable here: no folder outside the temp folders to test with")
    path = Path(tempfile.mkdtemp(prefix="vtcode-outside-", dir="/var/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
