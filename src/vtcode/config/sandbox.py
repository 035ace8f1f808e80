"""The sandbox policy commands run under, from `[sandbox]` and the environment."""

from __future__ import annotations

from collections.abc import Mapping

from vtcode.config.environment import resolve_user_home
from vtcode.config.schema import Settings
from vtcode.core.sandbox_policy import SandboxPolicy
from vtcode.protocol.errors import ConfigError


def sandbox_policy(settings: Settings, env: Mapping[str, str]) -> SandboxPolicy:
    """`[sandbox]` as the exec layer takes it, with `~/` in writable roots made absolute."""
    table = settings.sandbox
    return SandboxPolicy(
        mode=table.mode,
        network=table.network,
        writable_roots=_expand(table.writable_roots, env),
        allow_unix_sockets=_expand(table.allow_unix_sockets, env),
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
