"""Gathering the environment context from a real machine: real git repositories, an injected clock."""

from __future__ import annotations

import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from vtcode.core.environment_context import render_environment_context
from vtcode.core.git_status import GitState
from vtcode.exec.environment_facts import NO_SANDBOX, gather_environment
from vtcode.exec.git_query import PendingGitQuery, query_git

BERLIN_WINTER = timezone(timedelta(hours=1), "CET")
# 2026-12-01 13:05:00 UTC.
NOON = 1796130300.0


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=cwd, check=True)


def _repo(path: Path) -> Path:
    path.mkdir()
    _git(path, "init", "-q", "-b", "main")
    (path / "a.py").write_text("a = 1\n")
    (path / "b.py").write_text("b = 1\n")
    _git(path, "add", ".")
    _git(path, "commit", "-qm", "init")
    return path


def test_a_clean_repository_on_an_injected_day(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    facts = gather_environment(repo, clock=lambda: NOON, approval="full-auto", tz=BERLIN_WINTER)
    assert facts.working_directory == str(repo)
    assert facts.now == datetime(2026, 12, 1, 14, 5, tzinfo=BERLIN_WINTER)
    assert facts.git == GitState(branch="main", commit=facts.git.commit if facts.git else None)
    assert facts.sandbox == NO_SANDBOX
    text = render_environment_context(facts)
    assert "Today: Tuesday 2026-12-01; time zone: CET (UTC+01:00)\n" in text
    assert "Git: branch main; clean\n" in text


def test_dirty_counts_on_a_branch(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    _git(repo, "checkout", "-q", "-b", "fix/add")
    (repo / "a.py").write_text("a = 2\n")
    (repo / "b.py").write_text("b = 2\n")
    _git(repo, "add", "b.py")
    (repo / "new.txt").write_text("x\n")
    facts = gather_environment(repo, clock=lambda: NOON, approval="ask")
    assert facts.git is not None
    assert (facts.git.branch, facts.git.staged, facts.git.modified, facts.git.untracked) == (
        "fix/add",
        1,
        1,
        1,
    )


def test_a_subdirectory_of_a_repository_reports_the_repository(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    facts = gather_environment(repo / "pkg", clock=lambda: NOON, approval="ask")
    assert facts.git is not None
    assert facts.git.branch == "main"


def test_outside_a_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    # The ceiling keeps git from finding a repository above the temporary directory.
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    facts = gather_environment(plain, clock=lambda: NOON, approval="ask")
    assert facts.git is None
    assert "Git: not a git repository\n" in render_environment_context(facts)


def test_a_slow_status_still_names_the_branch(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    facts = gather_environment(repo, clock=lambda: NOON, approval="ask", git_timeout=0.0)
    assert facts.git == GitState(branch="main")
    assert facts.git_counts_known is False


def test_the_shell_commands_really_run_in(tmp_path: Path) -> None:
    facts = gather_environment(tmp_path, clock=lambda: NOON, approval="ask", shell="sh")
    assert facts.shell == "sh"
    assert gather_environment(tmp_path, clock=lambda: NOON, approval="ask").shell in ("bash", "sh")


def test_a_status_started_early_says_what_git_says_when_read(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    (repo / "a.py").write_text("a = 2\n")
    early = PendingGitQuery(repo)
    facts = gather_environment(repo, clock=lambda: NOON, approval="ask", git=early.result())
    assert early.result() == query_git(repo)
    assert facts.git == query_git(repo).state
    assert facts.git is not None
    assert facts.git.branch == "main"


def test_an_early_status_that_runs_out_of_time_still_names_the_branch(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    query = PendingGitQuery(repo, timeout=0.0).result()
    assert (query.state, query.counts_known) == (GitState(branch="main"), False)


def test_an_early_status_outside_a_repository_is_none(tmp_path: Path) -> None:
    query = PendingGitQuery(tmp_path)
    query.close()
    assert PendingGitQuery(tmp_path).result().state is None
