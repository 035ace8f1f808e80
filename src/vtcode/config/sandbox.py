"""The sandbox policy commands run under, from `[sandbox]` and the environment."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import msgspec

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


def added_dir_paths(dirs: Iterable[str]) -> tuple[str, ...]:
    """The `--add-dir` folders as absolute paths (relative to the current one); a missing one is an error."""
    added: list[str] = []
    for name in dirs:
        path = os.path.abspath(os.path.expanduser(name))
        if not os.path.isdir(path):
            raise ConfigError(
                f"--add-dir {name}: no such folder", hint="pass a folder that exists (it is not created)"
            )
        added.append(path)
    return tuple(added)


def with_added_dirs(settings: Settings, dirs: Iterable[str]) -> Settings:
    """`settings` with the `--add-dir` folders (relative to the current one) as writable roots too.

    A folder that does not exist is a config error: a typo must not silently leave commands confined.
    """
    added = added_dir_paths(dirs)
    if not added:
        return settings
    table = settings.sandbox
    roots = (*table.writable_roots, *(path for path in added if path not in table.writable_roots))
    return msgspec.structs.replace(settings, sandbox=msgspec.structs.replace(table, writable_roots=roots))
