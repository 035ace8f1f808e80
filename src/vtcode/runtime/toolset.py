"""The tools offered to the model in one session, and the resources they hold (command sessions)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import msgspec

from vtcode.config.environment import sandbox_missing_features
from vtcode.config.sandbox import sandbox_policy
from vtcode.config.schema import Settings
from vtcode.core.exec.environment_policy import inherited_environment
from vtcode.core.exec.wait import wait_ceiling
from vtcode.exec.manager import ExecSettings, SessionManager
from vtcode.tools.base import Tool
from vtcode.tools.recall_history import ArchiveReader
from vtcode.tools.registry import builtin_tools
from vtcode.tools.update_plan import PlanBoard
from vtcode.tools.web_fetch import WebFetchTool


class Toolset(msgspec.Struct):
    """Every tool of a session; `aclose` releases what they hold (kills command sessions)."""

    tools: list[Tool] = msgspec.field(default_factory=list)
    sessions: SessionManager | None = None

    async def aclose(self) -> None:
        """Terminate every command session's process group (vtcode exits: normally, SIGINT, SIGTERM)."""
        if self.sessions is not None:
            await self.sessions.aclose()


def exec_settings(settings: Settings, env: Mapping[str, str]) -> ExecSettings:
    """Command-session limits, defaults and sandbox from the configuration (and `env`, for `~`)."""
    ceiling = wait_ceiling(
        settings.timeouts.long_running_command_ceiling_seconds, settings.timeouts.default_ceiling_seconds
    )
    pty = settings.pty
    return ExecSettings(
        max_sessions=pty.max_sessions,
        spool_max_bytes=pty.spool_max_bytes,
        pty_enabled=pty.enabled,
        rows=pty.default_rows,
        cols=pty.default_cols,
        shell=pty.preferred_shell,
        spool_references=settings.context.dynamic.enabled,
        spool_threshold=settings.context.dynamic.tool_output_threshold,
        wait_default_seconds=min(settings.timeouts.wait_default_seconds, ceiling),
        wait_ceiling_seconds=ceiling,
        sandbox=sandbox_policy(settings, env),
        sandbox_missing=sandbox_missing_features(env),
    )


def command_environment(env: Mapping[str, str], settings: Settings) -> dict[str, str]:
    """The environment commands inherit: `[shell_environment_policy]`, less the configured providers' keys.

    `*_API_KEY` variables are dropped for every command by `exec.spawn`; a `[providers.X] api_key_env`
    may use any name, so those are dropped here whatever the policy says.
    """
    policy = settings.shell_environment_policy
    secret = {p.api_key_env for p in settings.providers.values() if p.api_key_env}
    return {k: v for k, v in inherited_environment(env, policy).items() if k not in secret}


def build_toolset(
    settings: Settings,
    workspace: Path,
    env: Mapping[str, str],
    extra: Sequence[Tool] = (),
    *,
    notify: Callable[[str], None] | None = None,
    archive: ArchiveReader | None = None,
    plan: PlanBoard | None = None,
) -> Toolset:
    """The tools for a session in `workspace`; command sessions spool into its `.vtcode` folder.

    `env` is the environment the front end was given (commands inherit it, less provider keys); `extra`
    tools are offered after the built-in ones; `notify` hears what the sandbox cannot enforce here;
    `archive` reads the compaction archive (`recall_history`); `plan` keeps the plan (`update_plan`).
    """
    sessions = SessionManager(
        workspace, command_environment(env, settings), exec_settings(settings, env), notify=notify
    )
    web: list[Tool] = [WebFetchTool()] if settings.tools.web_fetch else []
    planning = plan if settings.tools.update_plan else None
    return Toolset(tools=[*builtin_tools(sessions, archive, planning), *web, *extra], sessions=sessions)
