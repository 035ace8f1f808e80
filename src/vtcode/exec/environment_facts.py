"""Gathering the facts of the environment context item: the machine, the shell, the clock and git.

The I/O side of `core.environment_context`; the caller passes the clock (and may pass a time zone) so
tests decide what day it is, and the approval and sandbox modes it enforces.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime, tzinfo
from pathlib import Path

from vtcode.core.environment_context import EnvironmentFacts
from vtcode.exec.git_query import GIT_STATUS_TIMEOUT_SECONDS, GitQuery, query_git
from vtcode.exec.shell import default_shell

# Commands run without an OS sandbox today (DESIGN section 5 lists one as future work).
NO_SANDBOX = "none (commands run with your user's permissions)"

_OS_NAMES = {"Darwin": "macOS", "Linux": "Linux"}


def gather_environment(
    workspace: Path,
    *,
    clock: Callable[[], float],
    approval: str,
    sandbox: str = NO_SANDBOX,
    shell: str | None = None,
    tz: tzinfo | None = None,
    git_timeout: float = GIT_STATUS_TIMEOUT_SECONDS,
    git: GitQuery | None = None,
) -> EnvironmentFacts:
    """The facts for `workspace` now: `clock` gives epoch seconds, `tz` the zone (default: the system's).

    `shell` is the configured command shell (`pty.preferred_shell`); the one command sessions really use
    is named. Blocks for at most about `git_timeout` seconds (run it in a thread from async code);
    `git` is what a query started earlier said (`PendingGitQuery`), so none runs here.
    """
    seconds = clock()
    now = (
        datetime.fromtimestamp(seconds, tz)
        if tz is not None
        else datetime.fromtimestamp(seconds).astimezone()
    )
    if git is None:
        git = query_git(workspace, timeout=git_timeout)
    return EnvironmentFacts(
        working_directory=str(workspace),
        os=_os_name(),
        shell=os.path.basename(default_shell(shell)),
        now=now,
        git=git.state,
        git_counts_known=git.counts_known,
        approval=approval,
        sandbox=sandbox,
    )


def _os_name() -> str:
    uname = os.uname()
    return f"{_OS_NAMES.get(uname.sysname, uname.sysname)} {uname.release} ({uname.machine})"
