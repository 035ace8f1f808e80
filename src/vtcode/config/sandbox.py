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
    roots: list[str] = []
    for root in table.writable_roots:
        if root == "~" or root.startswith("~/"):
            try:
                roots.append(str(resolve_user_home(env) / root[2:]))
            except ConfigError:
                continue  # no home known (a front end that runs no commands): one folder fewer to write
        else:
            roots.append(root)
    return SandboxPolicy(mode=table.mode, network=table.network, writable_roots=tuple(roots))
