"""Asking git about the workspace's branch and dirty state, bounded in time and never taking locks."""

from __future__ import annotations

import logging
import subprocess
import time
from pathlib import Path

import msgspec

from vtcode.core.git_status import GitState, parse_porcelain_v2
from vtcode.exec.git_repo import GitAccess, run_git

log = logging.getLogger(__name__)

# A huge work tree (or a slow network file system) must not hold up the session's first request.
GIT_STATUS_TIMEOUT_SECONDS = 2.0
# `--no-optional-locks` (GitAccess adds it): a status run in the background must not fight the user's
# own git for the index lock. Submodules are not entered: each brings a config of its own.
_STATUS = ("status", "--porcelain=v2", "--branch", "--untracked-files=normal", "--ignore-submodules=all")
_BRANCH = ("symbolic-ref", "--short", "-q", "HEAD")
# Reading HEAD touches one file, so it is worth trying even after status ran out of time.
_BRANCH_TIMEOUT_SECONDS = 1.0


class GitQuery(msgspec.Struct, frozen=True):
    """What git said: the state (None outside a work tree) and whether the counts are in it."""

    state: GitState | None
    counts_known: bool = True


def query_git(
    workspace: Path, *, timeout: float = GIT_STATUS_TIMEOUT_SECONDS, git: GitAccess | None = None
) -> GitQuery:
    """The branch and dirty counts of the work tree holding `workspace` (state None when there is none)."""
    return PendingGitQuery(workspace, timeout=timeout, git=git).result()


class PendingGitQuery:
    """A `git status` started now and read later, so it runs while the session does other work.

    `result` waits for it, at most `timeout` seconds after the start in all; `close` ends one that is
    not wanted any more. `git` is the session's access (a fresh one with no environment when None).
    """

    def __init__(
        self, workspace: Path, *, timeout: float = GIT_STATUS_TIMEOUT_SECONDS, git: GitAccess | None = None
    ) -> None:
        self._workspace = workspace
        self._git = git or GitAccess(workspace, {})
        self._deadline = time.monotonic() + timeout
        self._timeout = timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._error: OSError | None = None
        self._result: GitQuery | None = None
        argv = self._git.command(*_STATUS)
        if argv is None:
            return  # no repository, or one vtcode must not run git on: no git state
        try:
            self._proc = subprocess.Popen(
                argv,
                cwd=workspace,
                env=self._git.environment,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            self._error = exc

    def result(self) -> GitQuery:
        """What git said (waits for it, within the timeout)."""
        if self._result is None:
            self._result = self._collect()
        return self._result

    def close(self) -> None:
        """End the query if it still runs (nothing to do once its result was read)."""
        if self._proc is not None and self._result is None:
            self._proc.kill()
            self._proc.communicate()
            self._proc = None

    def _collect(self) -> GitQuery:
        proc, workspace = self._proc, self._workspace
        if proc is None:
            if self._error is not None:
                log.info("git is not available: %s", self._error)
            return GitQuery(None)
        try:
            stdout, _ = proc.communicate(timeout=max(0.0, self._deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            # As `subprocess.run` does on a timeout: kill, then reap.
            proc.kill()
            proc.communicate()
            log.info(
                "git status in %s took longer than %.1fs; showing the branch only", workspace, self._timeout
            )
            return GitQuery(_branch_only(self._git, workspace), counts_known=False)
        if proc.returncode != 0:
            return GitQuery(None)
        return GitQuery(parse_porcelain_v2(stdout.decode("utf-8", errors="replace")))


def _branch_only(git: GitAccess, workspace: Path) -> GitState | None:
    argv = git.command(*_BRANCH)
    if argv is None:
        return None
    try:
        done = run_git(argv, workspace, git.environment, timeout=_BRANCH_TIMEOUT_SECONDS)
    except (subprocess.TimeoutExpired, OSError):
        return None
    branch = done.stdout.decode("utf-8", errors="replace").strip()
    return GitState(branch=branch or None) if done.returncode in (0, 1) else None
