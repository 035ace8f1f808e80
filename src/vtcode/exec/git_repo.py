"""The repository vtcode's own git runs on, found once per session and checked again before every run.

The location (`.git`, its `gitdir:`, `commondir`) is read here as git itself would find it, judged by
`core.git_safety.location_problem`, and pinned when the session starts, before any command ran. A
later run goes ahead only while the location is exactly the pinned one: a `.git` that a command
created (`git init`), rewrote (`gitdir: /tmp/evil`) or redirected (`commondir`) turns vtcode's git
off for the rest of the session, and the callers fall back to walking the files themselves.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from vtcode.core.git_safety import (
    SAFE_CONFIG,
    GitLocation,
    git_environment,
    is_plain_git_folder,
    location_problem,
)
from vtcode.core.sandbox_policy import TEMP_FOLDERS

log = logging.getLogger(__name__)

_GITDIR_PREFIX = "gitdir:"
# Reading one config key; a slow file system must not hold up the first command for long.
_CONFIG_TIMEOUT_SECONDS = 5.0


class _Suspicious(Exception):
    """`.git` exists but does not lead to a usable git directory."""


def locate(workspace: Path) -> GitLocation | None:
    """Where git would find the repository holding `workspace`; None without one.

    Raises `ValueError` when a `.git` is there but unusable (an unreadable or malformed `gitdir:` file,
    a git directory without HEAD): git would go on searching, vtcode does not.
    """
    start = os.path.realpath(workspace)
    for top in (start, *(os.fspath(p) for p in Path(start).parents)):
        dot_git = os.path.join(top, ".git")
        if os.path.lexists(dot_git):
            try:
                return _location(top, dot_git)
            except (OSError, UnicodeDecodeError, _Suspicious) as exc:
                raise ValueError(f"{dot_git} does not lead to a git directory ({exc})") from None
    return None


def _location(top: str, dot_git: str) -> GitLocation:
    is_dir = os.path.isdir(dot_git) and not os.path.islink(dot_git)
    if os.path.isdir(dot_git):
        git_dir = os.path.realpath(dot_git)
    else:
        with open(dot_git, encoding="utf-8") as handle:
            first = handle.readline(4096).strip()
        if not first.startswith(_GITDIR_PREFIX):
            raise _Suspicious("no gitdir: line")
        git_dir = os.path.realpath(os.path.join(top, first[len(_GITDIR_PREFIX) :].strip()))
    if not os.path.exists(os.path.join(git_dir, "HEAD")):
        raise _Suspicious(f"{git_dir} has no HEAD")
    common_dir = git_dir
    commondir_file = os.path.join(git_dir, "commondir")
    if os.path.lexists(commondir_file):
        with open(commondir_file, encoding="utf-8") as handle:
            common_dir = os.path.realpath(os.path.join(git_dir, handle.readline(4096).strip()))
    return GitLocation(
        top=top,
        dot_git=os.path.realpath(dot_git) if is_dir else dot_git,
        dot_git_is_dir=is_dir,
        git_dir=git_dir,
        common_dir=common_dir,
    )


def writable_folders(workspace: Path, env: Mapping[str, str], extra: Iterable[str] = ()) -> tuple[str, ...]:
    """Every folder a sandboxed command may write in any mode: the workspace, temp folders, roots."""
    tmpdir = env.get("TMPDIR", "")
    folders = [os.fspath(workspace), *TEMP_FOLDERS, *([tmpdir] if os.path.isabs(tmpdir) else []), *extra]
    return tuple(dict.fromkeys(os.path.realpath(folder) for folder in folders))


def find_git(env: Mapping[str, str], writable: Sequence[str]) -> str | None:
    """The `git` program vtcode may run: on PATH, outside every folder a command may write."""
    return _find_git(env, writable)


def _find_git(env: Mapping[str, str], writable: Sequence[str]) -> str | None:
    # A `git` a command could have planted (a workspace `bin/` on PATH, /tmp) is never run.
    for folder in (env.get("PATH") or os.defpath).split(os.pathsep):
        if not folder or not os.path.isabs(folder):
            continue
        found = shutil.which("git", path=folder)
        if found is not None:
            real = os.path.realpath(found)
            if not any(_within(real, root) for root in writable):
                return real
    return None


class GitAccess:
    """vtcode's own git for one workspace: `command` gives a safe argv, or None when git must not run."""

    def __init__(
        self, workspace: Path, env: Mapping[str, str], *, writable_roots: Iterable[str] = ()
    ) -> None:
        self.workspace = Path(os.path.realpath(workspace))
        self._env = git_environment(env)
        self._writable = writable_folders(self.workspace, env, writable_roots)
        home = self._env.get("HOME")
        if home and any(_within(os.path.realpath(home), root) for root in self._writable):
            # A HOME commands may write (CI's /tmp) could gain a ~/.gitconfig defining a filter that
            # `git status` runs: the global configuration is not read at all then.
            self._env["GIT_CONFIG_GLOBAL"] = os.devnull
        self._program = _find_git(env, self._writable)
        self._pinned, self.problem = self._current()
        if self.problem is not None:
            log.info("vtcode does not run git in %s: %s", self.workspace, self.problem)

    @property
    def environment(self) -> dict[str, str]:
        """The scrubbed environment every run gets."""
        return dict(self._env)

    def command(self, *args: str) -> list[str] | None:
        """`git ARGS` made safe (explicit git dir and work tree, `SAFE_CONFIG`); None: do not run git.

        None when there is no repository or no git, when the location was unsafe at the start, or when
        it changed since (vtcode then stays off git for the rest of the session).
        """
        if self._program is None or self._pinned is None or self.problem is not None:
            return None
        current, problem = self._current()
        if current != self._pinned:
            self.problem = problem or (
                f"the repository location changed during the session ({self._pinned.git_dir} -> "
                f"{current.git_dir if current is not None else 'none'})"
            )
            log.info("vtcode stops running git in %s: %s", self.workspace, self.problem)
            return None
        config = [part for pair in SAFE_CONFIG for part in ("-c", pair)]
        location = [f"--git-dir={current.git_dir}", f"--work-tree={current.top}"]
        return [self._program, "--no-optional-locks", *config, *location, *args]

    @property
    def location(self) -> GitLocation | None:
        """The repository pinned at the start; None without one or when git must not run on it."""
        return self._pinned if self.problem is None else None

    def hooks_path(self) -> str | None:
        """`core.hooksPath` as the user's git sees it (`~/` expanded), None when unset or unknown."""
        argv = self.command("config", "--type=path", "--get", "core.hooksPath")
        if argv is None:
            return None
        # SAFE_CONFIG's own `core.hooksPath=/dev/null` would be the answer: ask without it.
        at = argv.index("core.hooksPath=/dev/null")
        del argv[at - 1 : at + 1]
        try:
            done = run_git(argv, self.workspace, self._env, timeout=_CONFIG_TIMEOUT_SECONDS)
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.info("could not ask git for core.hooksPath: %s", exc)
            return None
        value = os.fsdecode(done.stdout).strip()
        return value if done.returncode == 0 and value else None

    def _current(self) -> tuple[GitLocation | None, str | None]:
        try:
            location = locate(self.workspace)
        except ValueError as exc:
            return None, str(exc)
        if location is None:
            return None, None
        problem = location_problem(location, workspace=os.fspath(self.workspace), writable=self._writable)
        return location, problem


def run_git(
    argv: list[str], cwd: Path, env: Mapping[str, str], *, timeout: float | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run a `GitAccess.command` to its end, blocking, with no input; its output and errors captured."""
    return subprocess.run(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, check=False
    )


def git_protected_paths(
    workspace: Path, env: Mapping[str, str], *, writable_roots: Iterable[str] = ()
) -> tuple[str, ...]:
    """Git's own files the sandbox must keep read-only besides the workspace's `.git`.

    The `.git` folder of a repository holding the workspace from above it, and a hooks folder that
    `core.hooksPath` puts in the work tree (husky's `.husky`): git runs those hooks outside the sandbox.
    """
    access = GitAccess(workspace, env, writable_roots=writable_roots)
    location = access.location
    if location is None:
        return ()
    found: list[str] = []
    if is_plain_git_folder(location) and location.top != os.fspath(access.workspace):
        found.append(location.dot_git)
    hooks = access.hooks_path()
    if hooks is not None:
        found.append(os.path.realpath(os.path.join(location.top, hooks)))
    return tuple(found)


def _within(path: str, root: str) -> bool:
    outer = root.rstrip("/")
    return path == outer or path.startswith(outer + "/")
