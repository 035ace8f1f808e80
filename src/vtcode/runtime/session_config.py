"""How a session is configured from what its user asked for: layered settings, hooks, warnings.

Every front end (`vtcode exec`, the TUI, the ACP server, and the ones to come) describes the launch as
a `SessionRequest` and gets its `SessionOptions` here, so they all read settings, hooks and the
environment the same way. Turning command-line flags into a request is the CLI's part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from vtcode.config.environment import os_environ
from vtcode.config.hook_presence import may_have_hooks
from vtcode.config.loader import load_settings
from vtcode.config.sandbox import added_dir_paths, with_added_dirs
from vtcode.core.hooks.model import HookSet
from vtcode.runtime.wiring import SessionOptions


class SessionRequest(msgspec.Struct, frozen=True):
    """What the user asked for at launch, before any settings are read."""

    # An existing directory, already resolved by the front end.
    workspace: Path
    # Dedicated flags as dotted config keys (the highest layer), e.g. {"agent.model": "..."}.
    flags: Mapping[str, object] = msgspec.field(default_factory=dict)
    # `-c key=value` overrides, in the order given.
    overrides: Sequence[str] = ()
    resume: str | None = None
    continue_last: bool = False
    trust_workspace_hooks: bool = False
    trust_project_mcp: bool = False
    # `--add-dir` folders: writable roots of the sandbox for this run, besides the workspace.
    add_dirs: Sequence[str] = ()


def session_options(
    request: SessionRequest,
    *,
    headless: bool = True,
    until_idle: bool = False,
    output_schema: dict[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
) -> SessionOptions:
    """The session `request` asks for: layered settings, resume, hooks, MCP trust, warnings.

    `env` stands in for the process environment (an embedding program's own, per session).
    """
    workspace = request.workspace
    env = os_environ() if env is None else env
    flags = request.flags
    overrides = request.overrides
    loaded = load_settings(workspace=workspace, env=env, overrides=overrides, flags=flags)
    # What this run names itself (flags, -c, VTCODE_*) beats what a resumed session ran with.
    named = {*flags, *(item.partition("=")[0].strip() for item in overrides)}
    named |= {
        key
        for key, var in (("agent.provider", "VTCODE_PROVIDER"), ("agent.model", "VTCODE_MODEL"))
        if env.get(var)
    }
    # Read before anything runs: a bad hook file is a config error (exit 2) like a bad vtcode.toml.
    hooks = HookSet()
    hook_warnings: tuple[str, ...] = ()
    # Read only when some source exists: the readers cost start-up time and most workspaces have none.
    if may_have_hooks(loaded, workspace):
        from vtcode.config.hook_sources import load_hooks

        found = load_hooks(loaded, workspace, trust_all=request.trust_workspace_hooks, env=env)
        hooks, hook_warnings = found.hooks, found.warnings
    return SessionOptions(
        workspace=workspace,
        settings=with_added_dirs(loaded.settings, request.add_dirs),
        added_dirs=tuple(Path(path) for path in added_dir_paths(request.add_dirs)),
        home=loaded.home,
        env=env,
        resume=request.resume,
        continue_last=request.continue_last,
        headless=headless,
        until_idle=until_idle,
        trust_project_mcp=request.trust_project_mcp,
        config_warnings=(
            *loaded.warnings,
            *hook_warnings,
            *loaded.notices,
            *_broad_workspace(workspace, env),
        ),
        hooks=hooks,
        output_schema=output_schema,
        keep_stored=frozenset({"agent.provider", "agent.model"} - named),
    )


def _broad_workspace(workspace: Path, env: Mapping[str, str]) -> tuple[str, ...]:
    """A warning when the workspace is `/` or the home folder: the agent may then edit anything there."""
    home = env.get("HOME", "")
    if workspace == Path("/") or (home and workspace == Path(home).resolve()):
        return (
            f"the workspace is {workspace}: the agent may read and change anything under it; "
            "pass --workspace (-C) the project folder instead",
        )
    return ()
