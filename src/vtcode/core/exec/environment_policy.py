"""Which environment variables the agent's commands inherit (`[shell_environment_policy]`).

Whatever a command can read, the model can read (an `env` run, a prompt-injected `printenv`), and so can
the session files and the output spool. Secrets therefore stay out by default: every variable whose name
matches `*KEY*`, `*SECRET*`, `*TOKEN*` or `*PASSWORD*` (any case) is dropped unless the user opts out.
The order of the steps follows Codex's policy of the same name, so its users' settings mean the same here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fnmatch import fnmatchcase
from typing import Literal

import msgspec

Inherit = Literal["all", "core", "none"]

DEFAULT_EXCLUDES: tuple[str, ...] = ("*KEY*", "*SECRET*", "*TOKEN*", "*PASSWORD*")
"""Name patterns dropped unless `ignore_default_excludes` is set (matched case-insensitively)."""

CORE_VARIABLES: frozenset[str] = frozenset(
    ("HOME", "LOGNAME", "PATH", "SHELL", "USER", "USERNAME", "TMPDIR", "TEMP", "TMP", "LANG", "LC_ALL", "TZ")
)
"""What `inherit = "core"` keeps: enough for a shell and common tools to work."""


class EnvironmentPolicy(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[shell_environment_policy]`: the variables the agent's commands inherit (Codex's table)."""

    # all: vtcode's environment; core: `CORE_VARIABLES`; none: nothing.
    inherit: Inherit = "all"
    # Keep `*KEY*`, `*SECRET*`, `*TOKEN*`, `*PASSWORD*`, which are dropped by default.
    ignore_default_excludes: bool = False
    exclude: tuple[str, ...] = ()
    include_only: tuple[str, ...] = ()
    set: dict[str, str] = msgspec.field(default_factory=dict)


def _matches(name: str, patterns: Iterable[str]) -> bool:
    upper = name.upper()
    return any(fnmatchcase(upper, pattern.upper()) for pattern in patterns)


def inherited_environment(base: Mapping[str, str], policy: EnvironmentPolicy) -> dict[str, str]:
    """The variables a command starts with: inherit, drop default then user excludes, set, include_only."""
    if policy.inherit == "none":
        env: dict[str, str] = {}
    elif policy.inherit == "core":
        env = {k: v for k, v in base.items() if k in CORE_VARIABLES}
    else:
        env = dict(base)
    if not policy.ignore_default_excludes:
        env = {k: v for k, v in env.items() if not _matches(k, DEFAULT_EXCLUDES)}
    if policy.exclude:
        env = {k: v for k, v in env.items() if not _matches(k, policy.exclude)}
    env.update(policy.set)
    if policy.include_only:
        env = {k: v for k, v in env.items() if _matches(k, policy.include_only)}
    return env
