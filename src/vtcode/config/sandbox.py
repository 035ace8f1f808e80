"""The sandbox policy commands run under, from `[sandbox]` and the environment."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from vtcode.config.environment import resolve_home, resolve_user_home
from vtcode.config.schema import Settings
from vtcode.core.sandbox_policy import SandboxPolicy, user_config_paths
from vtcode.protocol.errors import ConfigError


def sandbox_policy(settings: Settings, env: Mapping[str, str]) -> SandboxPolicy:
    """`[sandbox]` as the exec layer takes it, with `~/` in writable roots and sockets made absolute.

    The user's configuration (`$VTCODE_HOME`, git's global files) is added to the protected paths: a
    HOME or VTCODE_HOME under /tmp or a writable root must not let a command rewrite it.
    """
    table = settings.sandbox
    return SandboxPolicy(
        mode=table.mode,
        network=table.network,
        writable_roots=_expand(table.writable_roots, env),
        allow_unix_sockets=_expand(table.allow_unix_sockets, env),
        protected_extra=user_config_paths(_known(resolve_home, env), _known(resolve_user_home, env)),
    )


def _expand(paths: tuple[str, ...], env: Mapping[str, str]) -> tuple[str, ...]:
    expanded: list[str] = []
    for path in paths:
        if path == "~" or path.startswith("~/"):
            try:
                expanded.append(str(resolve_user_home(env) / path[2:]))
            except ConfigError:
                continue  # no home known (a front end that runs no commands): one path fewer
        else:
            expanded.append(path)
    return tuple(expanded)


def _known(resolve: Callable[[Mapping[str, str]], Path], env: Mapping[str, str]) -> str | None:
    try:
        return str(resolve(env))
    except ConfigError:
        return None  # no home known: nothing of it to protect
