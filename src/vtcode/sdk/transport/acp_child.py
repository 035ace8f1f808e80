"""Starting the `vtcode acp` child of a subprocess session, before this process loads the ACP library.

Both sides import the ACP library (its pydantic schema: about a second of CPU). Started first, the child
loads it while this process does, on another core, instead of after it: a program's first subprocess
session opens that much sooner.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec

from vtcode.exec.agent_child import AgentChild, start_agent_child
from vtcode.sdk.options import CLIENT_PROVIDER, Options, checked_workspace, client_overrides, output_schema
from vtcode.sdk.transport.errors import TransportError


class StartedChild(msgspec.Struct, frozen=True):
    """A started child and the checked options it was started with."""

    process: AgentChild
    workspace: Path
    schema: dict[str, Any] | None


async def start_child(options: Options) -> StartedChild:
    """Check `options` (ConfigError, UsageError), then start `vtcode acp` with them (TransportError)."""
    from vtcode.config.environment import os_environ

    workspace = checked_workspace(options)
    schema = output_schema(options)
    try:
        child = await start_agent_child(
            child_argv(options, workspace), cwd=workspace, env={**os_environ(), **options.env}
        )
    except OSError as exc:
        raise TransportError(f"vtcode acp could not be started: {exc}") from None
    return StartedChild(child, workspace, schema)


def child_argv(options: Options, workspace: Path) -> list[str]:
    """`vtcode acp` with the session's settings as command-line flags (as a user would start it)."""
    argv = [sys.executable, "-m", "vtcode", "acp", "--workspace", str(workspace)]
    named = client_overrides(options)
    for flag, value in (
        ("--provider", CLIENT_PROVIDER if named else options.provider),
        ("--model", options.model or CLIENT_PROVIDER if named else options.model),
        # "pause" is the SDK's own: the child asks, and the program pauses what it is asked.
        ("--approval", "ask" if options.approval == "pause" else options.approval),
        ("--base-url", options.base_url),
        ("--max-turns", options.max_turns),
    ):
        if value is not None:
            argv += [flag, str(value)]
    budget = () if options.max_budget_usd is None else (f"agent.max_budget_usd={options.max_budget_usd!r}",)
    for override in (*options.config, *named, *budget):
        argv += ["-c", override]
    return argv
