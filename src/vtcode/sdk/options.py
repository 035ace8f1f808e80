"""What an embedding program asks of a session, turned into the runtime's `SessionOptions`.

Settings are read like every front end reads them (`runtime.session_config`): the user's and the
workspace's `vtcode.toml`, `VTCODE_*` variables, then `config` overrides, then the fields named here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from vtcode.core.approvals import ApprovalMode
from vtcode.protocol.errors import ConfigError
from vtcode.sdk.hooks import Hooks
from vtcode.sdk.output import OutputType, output
from vtcode.sdk.permission import PermissionCallback
from vtcode.sdk.tool import FunctionTool, SessionTool

if TYPE_CHECKING:
    from vtcode.providers.base import ModelClient
    from vtcode.runtime.callable_hooks import CallableHook
    from vtcode.runtime.wiring import SessionOptions


# The provider name of a session whose `model_client` stands in for any configured provider.
CLIENT_PROVIDER = "sdk_client"
_UNUSED_URL = "http://127.0.0.1:9/v1"


@dataclass(frozen=True)
class Options:
    """A session's setup; every field left None comes from the configuration files and environment.

    `env` is added to the process environment for this session only (provider keys, base URLs, what
    commands inherit), so sessions of one process can talk to different providers.
    """

    workspace: str | Path = "."
    provider: str | None = None
    model: str | None = None
    # "pause": what would be asked ends the turn with `pending_approvals` instead (`sdk.pause`).
    approval: ApprovalMode | Literal["pause"] | None = None
    base_url: str | None = None
    max_turns: int | None = None
    # Stop before the next model request once this session's calls since it was opened cost this much
    # (USD at list prices, subagents and compaction included): the turn fails with kind "budget".
    max_budget_usd: float | None = None
    tools: Sequence[FunctionTool] = ()
    permission: PermissionCallback | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    # `-c key=value` overrides, in order (e.g. "sandbox.mode=workspace-write").
    config: Sequence[str] = ()
    # Store nothing under $VTCODE_HOME/sessions (no resume).
    ephemeral: bool = False
    # Every final answer is a JSON value of this type (or JSON Schema), re-asked when invalid.
    output_type: OutputType | None = None
    # Python callbacks at the turn loop's boundaries (`vtcode.sdk.Hooks`).
    hooks: Hooks | None = None
    # A model client instead of the configured provider (`vtcode.sdk.testing.ScriptedModel` in tests).
    model_client: ModelClient | None = None
    # Where the agent runs: in this process, or a `vtcode acp` child spoken to over stdio
    # (`vtcode.sdk.transport`); the events and results are the same.
    transport: Literal["in-process", "subprocess"] = "in-process"


def runtime_options(
    options: Options, *, session_id: Callable[[], str], resume: str | None = None
) -> SessionOptions:
    """The runtime's options for `options` (raises `ConfigError` for a bad setup).

    `session_id` tells tools the id, known once the session is open.
    """
    # Imported on first use: `import vtcode.sdk` stays cheap (the runtime pulls in the providers).
    from vtcode.config.environment import os_environ
    from vtcode.runtime.session_config import SessionRequest, session_options

    workspace = checked_workspace(options)
    flags = {
        key: value
        for key, value in (
            ("agent.provider", options.provider),
            ("agent.model", options.model),
            ("agent.approval", "ask" if options.approval == "pause" else options.approval),
            ("agent.base_url", options.base_url),
            ("agent.max_turns", options.max_turns),
            ("agent.max_budget_usd", options.max_budget_usd),
        )
        if value is not None
    }
    overrides = (*options.config, *client_overrides(options))
    if client_overrides(options):
        flags = {"agent.provider": CLIENT_PROVIDER, "agent.model": options.model or CLIENT_PROVIDER, **flags}
    request = SessionRequest(workspace=workspace, flags=flags, overrides=overrides, resume=resume)
    env = {**os_environ(), **options.env}
    # Not headless: an "ask" becomes an `approval.requested` the SDK answers (see `sdk.permission`).
    built = session_options(request, headless=False, env=env, output_schema=_schema(options))
    tools = tuple(SessionTool(t, session_id) for t in options.tools)
    hooks: tuple[CallableHook, ...] = ()
    if options.hooks is not None:
        from vtcode.sdk.tool_hooks import callable_hooks

        hooks = callable_hooks(options.hooks, session_id)
    return dataclasses.replace(built, extra_tools=tools, ephemeral=options.ephemeral, callable_hooks=hooks)


def client_overrides(options: Options) -> tuple[str, ...]:
    """The config override that names the `model_client`'s provider when no provider is given."""
    if options.model_client is None or options.provider is not None:
        return ()
    # The client answers every request: a provider entry that needs no key only names it.
    return (f'providers.{CLIENT_PROVIDER}.base_url="{_UNUSED_URL}"',)


def checked_workspace(options: Options) -> Path:
    """The workspace as an absolute path (raises `ConfigError` for a missing one or clashing tool names)."""
    workspace = Path(options.workspace).expanduser().resolve()
    if not workspace.is_dir():
        raise ConfigError(f"workspace {str(workspace)!r} is not a directory")
    if options.approval == "pause" and options.ephemeral:
        raise ConfigError("approval='pause' needs a stored session", hint="drop ephemeral=True")
    names = [t.spec.name for t in options.tools]
    if len(set(names)) != len(names):
        raise ConfigError(f"two tools share a name: {', '.join(sorted(names))}")
    return workspace


def output_schema(options: Options) -> dict[str, Any] | None:
    """The JSON Schema of `options.output_type`, checked like `--output-schema` (UsageError)."""
    return _schema(options)


def _schema(options: Options) -> dict[str, Any] | None:
    """The JSON Schema of `options.output_type`, checked like `--output-schema` (UsageError)."""
    if options.output_type is None:
        return None
    from vtcode.runtime.structured_output import check_schema

    return dict(check_schema(output(options.output_type).schema, "output_type"))
