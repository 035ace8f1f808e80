"""Which MCP servers a session may start: `[mcp_servers]` of the user's config, and a trusted `.mcp.json`.

A project's `.mcp.json` (Claude Code's format) arrives with `git clone`: its servers are programs the
repository chose, so they start only once the user trusts that project (`[projects."/abs/path"]
trust_mcp = true` in the user config, or `--trust-project-mcp`); until then a diagnostic lists what
would start. A server named in both places is the user's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vtcode.config.schema import McpServerSettings, Settings

PROJECT_FILE = ".mcp.json"


@dataclass(frozen=True)
class ServerDefinition:
    """One server as it will be started: stdio (`command`) or streamable HTTP (`url`)."""

    name: str
    settings: McpServerSettings
    origin: str = "config"

    @property
    def transport(self) -> str:
        """`stdio` or `http`."""
        return "http" if self.settings.url else "stdio"

    @property
    def target(self) -> str:
        """The command line or URL, for people."""
        s = self.settings
        return s.url or " ".join([s.command or "", *s.args]).strip()


@dataclass(frozen=True)
class ServerPlan:
    """The servers to start, and what to tell the user about the ones that will not start."""

    servers: tuple[ServerDefinition, ...] = ()
    diagnostics: tuple[str, ...] = field(default_factory=tuple)


def plan_servers(settings: Settings, workspace: Path, *, trust_project: bool = False) -> ServerPlan:
    """The enabled servers of the user's config plus, when the project is trusted, its `.mcp.json`."""
    diagnostics: list[str] = []
    servers: dict[str, ServerDefinition] = {}
    for name, server in sorted(settings.mcp_servers.items()):
        problem = _problem(server)
        if problem:
            diagnostics.append(f"mcp_servers.{name}: {problem}; not started")
        elif server.enabled:
            servers[name] = ServerDefinition(name, server)
    project, project_problems = read_project_file(workspace)
    diagnostics.extend(project_problems)
    project = {k: v for k, v in project.items() if k not in settings.mcp_servers}
    if project:
        trusted = trust_project or project_trusted(settings, workspace)
        if trusted:
            servers.update(
                (name, ServerDefinition(name, s, origin=PROJECT_FILE)) for name, s in project.items()
            )
        else:
            shown = "; ".join(f"{name}: {ServerDefinition(name, s).target}" for name, s in project.items())
            diagnostics.append(
                f"{workspace / PROJECT_FILE} defines MCP servers that were not started ({shown}): "
                f'trust this project with [projects."{workspace}"] trust_mcp = true in your config, '
                "or --trust-project-mcp"
            )
    return ServerPlan(
        servers=tuple(servers[name] for name in sorted(servers)), diagnostics=tuple(diagnostics)
    )


def untrusted_project_servers(settings: Settings, workspace: Path) -> dict[str, McpServerSettings]:
    """The `.mcp.json` servers that would start if the user trusted the project (none once trusted)."""
    if project_trusted(settings, workspace):
        return {}
    found, _ = read_project_file(workspace)
    return {name: server for name, server in found.items() if name not in settings.mcp_servers}


def project_trusted(settings: Settings, workspace: Path) -> bool:
    """Whether the user's config trusts the MCP servers of `workspace` (as given or with links resolved)."""
    keys = {str(workspace), os.path.realpath(workspace)}
    return any(
        p.trust_mcp for key, p in settings.projects.items() if os.path.realpath(key) in keys or key in keys
    )


def read_project_file(workspace: Path) -> tuple[dict[str, McpServerSettings], list[str]]:
    """The servers of `<workspace>/.mcp.json`, and a diagnostic for each entry that cannot be used."""
    path = workspace / PROJECT_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, []
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return {}, [f"{path}: cannot be read ({exc}); its MCP servers are ignored"]
    table = raw.get("mcpServers") if isinstance(raw, Mapping) else None
    if not isinstance(table, Mapping):
        return {}, [f'{path}: expected an object with an "mcpServers" object; ignored']
    found: dict[str, McpServerSettings] = {}
    problems: list[str] = []
    for name, entry in table.items():
        server = _from_claude(entry)
        problem = _problem(server) if server is not None else "expected an object with command or url"
        if isinstance(entry, Mapping) and entry.get("type") == "sse":
            problem = "the SSE transport is not supported; use the server's streamable HTTP endpoint"
        if server is None or problem:
            problems.append(f"{path}: mcpServers.{name}: {problem}; ignored")
            continue
        found[str(name)] = server
    return found, problems


def _from_claude(entry: Any) -> McpServerSettings | None:
    """A Claude Code `.mcp.json` server entry in our shape (`command`/`args`/`env` or `url`/`headers`)."""
    if not isinstance(entry, Mapping) or entry.get("type") == "sse":
        # The legacy SSE transport is not supported (servers offer streamable HTTP instead).
        return None

    def strings(key: str) -> dict[str, str]:
        value = entry.get(key)
        return {str(k): str(v) for k, v in value.items()} if isinstance(value, Mapping) else {}

    args = entry.get("args")
    return McpServerSettings(
        command=str(entry["command"]) if isinstance(entry.get("command"), str) else None,
        args=tuple(str(a) for a in args) if isinstance(args, list) else (),
        env=strings("env"),
        url=str(entry["url"]) if isinstance(entry.get("url"), str) else None,
        headers=strings("headers"),
    )


def _problem(server: McpServerSettings) -> str:
    if bool(server.command) == bool(server.url):
        return "set exactly one of command (a program run over stdio) and url (streamable HTTP)"
    return ""
