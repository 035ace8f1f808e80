"""Fixtures for the workspace tools: a workspace, a directory outside it, real git repositories."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from vtcode.tools.base import ToolContext

Snapshot = dict[str, tuple[bytes, int] | str]


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # git reads ~/.gitconfig, $XDG_CONFIG_HOME/git/ignore and /etc/gitconfig; none may leak in.
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "RIPGREP_CONFIG_PATH"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace directory."""
    path = tmp_path / "ws"
    path.mkdir()
    return path


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory beside the workspace holding a secret no tool may read or change."""
    path = tmp_path / "outside"
    path.mkdir()
    (path / "secret.txt").write_text("TOP-SECRET outside content\n")
    return path


@pytest.fixture
def ctx(workspace: Path) -> ToolContext:
    """A tool context rooted at the workspace."""
    return ToolContext(workspace=workspace)


@pytest.fixture
def snapshot_outside(tmp_path: Path, workspace: Path) -> Callable[[], Snapshot]:
    """A function recording every entry of tmp_path outside the workspace (content, mtime, links)."""

    def snapshot() -> Snapshot:
        state: Snapshot = {}
        for directory, dirnames, filenames in os.walk(tmp_path):
            here = Path(directory)
            if here == workspace:
                dirnames[:] = []
                continue
            for name in [*dirnames, *filenames]:
                path = here / name
                key = str(path.relative_to(tmp_path))
                if path == workspace:
                    continue
                if path.is_symlink():
                    state[key] = "-> " + os.readlink(path)
                elif path.is_file():
                    state[key] = (path.read_bytes(), path.stat().st_mtime_ns)
                else:
                    state[key] = "dir"
        return state

    return snapshot


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def git_init() -> Callable[[Path], None]:
    """A function turning a directory into a git repository with an identity for commits."""

    def init(repo: Path) -> None:
        _git(repo, "init", "-q", "-b", "main")
        _git(repo, "config", "user.email", "test@example.invalid")
        _git(repo, "config", "user.name", "Test")

    return init


@pytest.fixture
def git_commit_all() -> Callable[[Path], None]:
    """A function committing every non-ignored file of a repository."""

    def commit(repo: Path) -> None:
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", "fixture")

    return commit


@pytest.fixture(params=["plain", "untracked", "committed"])
def repository(
    request: pytest.FixtureRequest,
    git_init: Callable[[Path], None],
    git_commit_all: Callable[[Path], None],
) -> Callable[[Path], None]:
    """A function leaving a tree as it is, making it a repository with nothing tracked, or committing it."""

    def setup(repo: Path) -> None:
        if request.param != "plain":
            git_init(repo)
        if request.param == "committed":
            git_commit_all(repo)

    return setup
