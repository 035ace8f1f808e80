"""How vtcode runs git itself: config that executes nothing, a scrubbed environment, a trusted location.

vtcode's own `git status` and `git ls-files` run outside the OS sandbox, so nothing a sandboxed command
can write may decide what they execute. Git runs programs named by configuration (`core.fsmonitor` on
every index read, hooks, pagers, ssh, credential helpers, submodule recursion), reads configuration
from wherever `.git` (a directory or a `gitdir:` file) and `commondir` point, and finds `.git` by
walking up from its working directory. So every run gets `-c` overrides for the knobs that start
programs, an environment with no provider keys, and an explicit `--git-dir`/`--work-tree` that was
checked here: the git directory and the common directory must be the `.git` folder of the workspace
or of the repository holding it (kept read-only by the sandbox) or lie outside every folder a command
may write.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec

SAFE_CONFIG: tuple[str, ...] = (
    # Run on every index read (status, ls-files): the vector of a planted `config`.
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    # Nested repositories bring their own config; none of our queries needs to enter them.
    "submodule.recurse=false",
    "status.submoduleSummary=false",
    "diff.ignoreSubmodules=all",
    # None of these runs for a local query today; pinned so a future git or option cannot start them.
    "core.pager=cat",
    "core.sshCommand=false",
    "core.askPass=",
    "credential.helper=",
    "diff.external=",
    "protocol.allow=never",
)
"""`-c` pairs given to every git vtcode runs (they also reach git's own child processes)."""

_ENV_ALLOWED = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "XDG_CONFIG_HOME")
_ENV_FIXED = {
    # /etc/gitconfig is the machine's, not the user's: nothing of it is needed to list files.
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_PAGER": "cat",
}


def git_environment(env: Mapping[str, str]) -> dict[str, str]:
    """The environment git runs with: a short allowlist of `env` (no keys, no GIT_* redirects)."""
    kept = {name: env[name] for name in _ENV_ALLOWED if env.get(name)}
    return {**kept, **_ENV_FIXED}


class GitLocation(msgspec.Struct, frozen=True):
    """Where git would find a repository for the workspace, every path real (symlinks resolved)."""

    # The folder holding `.git`: the workspace or one of its ancestors.
    top: str
    # The `.git` entry itself (a directory, or a file naming the git directory).
    dot_git: str
    dot_git_is_dir: bool
    git_dir: str
    common_dir: str


def location_problem(location: GitLocation, *, workspace: str, writable: Iterable[str]) -> str | None:
    """Why vtcode must not run git on `location` (a command could have redirected it), or None."""
    own = f"{location.top.rstrip('/')}/.git"
    # The repository's own .git folder, which the sandbox keeps read-only, is fine where it is.
    kept = own if location.dot_git_is_dir and location.dot_git == own else None
    roots = tuple(writable)
    for kind, path in (("git directory", location.git_dir), ("common directory", location.common_dir)):
        if path == kept:
            continue
        root = next((r for r in roots if _within(path, r)), None)
        if root is not None:
            return f"its {kind} {path} is in {root}, which commands may write"
    return None


def is_plain_git_folder(location: GitLocation) -> bool:
    """Whether the repository is an ordinary `.git` folder at its top, with no `commondir` elsewhere."""
    own = f"{location.top.rstrip('/')}/.git"
    return location.dot_git_is_dir and location.dot_git == location.git_dir == location.common_dir == own


def _within(path: str, root: str) -> bool:
    outer = root.rstrip("/")
    return path == outer or path.startswith(outer + "/") or outer == ""
