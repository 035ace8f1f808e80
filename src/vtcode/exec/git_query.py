"""Asking git about the workspace's branch and dirty state, bounded in time and never taking locks."""

from __future__ import annotations

import logging
import subprocess
from dataclasses import dataclass
from pathlib import Path

from vtcode.core.git_status import GitState, parse_porcelain_v2

log = logging.getLogger(__name__)

# A huge work tree (or a slow network file system) must not hold up the session's first request.
GIT_STATUS_TIMEOUT_SECONDS = 2.0
# `--no-optional-locks`: a status run in the background must not fight the user's own git for the index lock.
_STATUS = ("git", "--no-optional-locks", "status", "--porcelain=v2", "--branch", "--untracked-files=normal")
_BRANCH = ("git", "--no-optional-locks", "symbolic-ref", "--short", "-q", "HEAD")
# Reading HEAD touches one file, so it is worth trying even after status ran out of time.
_BRANCH_TIMEOUT_SECONDS = 1.0


@dataclass(frozen=True)
class GitQuery:
    """What git said: the state (None outside a work tree) and whether the counts are in it."""

    state: GitState | None
    counts_known: bool = True


def query_git(workspace: Path, *, timeout: float = GIT_STATUS_TIMEOUT_SECONDS) -> GitQuery:
    """The branch and dirty counts of the work tree holding `workspace` (state None when there is none)."""
    try:
        done = _run(_STATUS, workspace, timeout)
    except subprocess.TimeoutExpired:
        log.info("git status in %s took longer than %.1fs; showing the branch only", workspace, timeout)
        return GitQuery(_branch_only(workspace), counts_known=False)
    except OSError as exc:
        log.info("git is not available: %s", exc)
        return GitQuery(None)
    if done.returncode != 0:
        return GitQuery(None)
    return GitQuery(parse_porcelain_v2(done.stdout.decode("utf-8", errors="replace")))


def _branch_only(workspace: Path) -> GitState | None:
    try:
        done = _run(_BRANCH, workspace, _BRANCH_TIMEOUT_SECONDS)
    except (subprocess.TimeoutExpired, OSError):
        return None
    branch = done.stdout.decode("utf-8", errors="replace").strip()
    return GitState(branch=branch or None) if done.returncode in (0, 1) else None


def _run(argv: tuple[str, ...], cwd: Path, timeout: float) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        argv,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )
