"""Which MCP servers a session may start: `[mcp_servers]` of the user's config, and a trusted `.mcp.json`.

A project's `.mcp.json` (Claude Code's format) arrives with `git clone`: its servers are programs the
repository chose, so they start only once the user trusts them (`--trust-project-mcp` for one run, or
`[projects."/abs/path"] trust_mcp = true` in the user config with the hash of each trusted server's
definition in `mcp_server_hashes`); until then a diagnostic lists what would start. Trust is bound to
each definition, not to the path: a server added or changed since (by a pull, or by a command) does
not start until the user trusts it again. A server named in both places is the user's.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from vtcode.config.schema import McpServerSettings, Settings

PROJECT_FILE = ".mcp.json"


class ServerDefinition(msgspec.Struct, frozen=True):
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


class ServerPlan(msgspec.Struct, frozen=True):
    """The servers to start, and what to tell the user about the ones that will not start."""

    servers: tuple[ServerDefinition, ...] = ()
    diagnostics: tuple[str, ...] = msgspec.field(default_factory=tuple)


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
        waiting = {} if trust_project else untrusted_project_servers(settings, workspace, project)
        servers.update(
            (name, ServerDefinition(name, s, origin=PROJECT_FILE))
            for name, s in project.items()
            if name not in waiting
        )
        if waiting:
            diagnostics.append(_not_started(settings, workspace, waiting))
    return ServerPlan(
        servers=tuple(servers[name] for name in sorted(servers)), diagnostics=tuple(diagnostics)
    )


def untrusted_project_servers(
    settings: Settings, workspace: Path, found: Mapping[str, McpServerSettings] | None = None
) -> dict[str, McpServerSettings]:
    """The `.mcp.json` servers the user has not trusted as they are now defined (new or changed ones)."""
    if found is None:
        found = read_project_file(workspace)[0]
    pinned = trusted_hashes(settings, workspace)
    return {
        name: server
        for name, server in found.items()
        if name not in settings.mcp_servers and pinned.get(name) != definition_hash(server)
    }


def trusted_hashes(settings: Settings, workspace: Path) -> dict[str, str]:
    """The definition hashes the user trusted for `workspace` (as given or with links resolved)."""
    keys = {str(workspace), os.path.realpath(workspace)}
    pinned: dict[str, str] = {}
    for key, project in settings.projects.items():
        if project.trust_mcp and (key in keys or os.path.realpath(key) in keys):
            pinned.update(project.mcp_server_hashes)
    return pinned


def definition_hash(server: McpServerSettings) -> str:
    """`sha256:<hex>` of what a `.mcp.json` entry makes vtcode start or reach."""
    shape = {
        "command": server.command,
        "args": list(server.args),
        "env": dict(server.env),
        "url": server.url,
        "headers": dict(server.headers),
    }
    canonical = json.dumps(shape, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def server_hashes(servers: Mapping[str, McpServerSettings]) -> dict[str, str]:
    """`definition_hash` of each server, by name (what trusting them records)."""
    return {name: definition_hash(server) for name, server in servers.items()}


def _not_started(settings: Settings, workspace: Path, waiting: Mapping[str, McpServerSettings]) -> str:
    shown = "; ".join(f"{name}: {ServerDefinition(name, s).target}" for name, s in waiting.items())
    pins = ", ".join(f"{json.dumps(name)} = {json.dumps(definition_hash(s))}" for name, s in waiting.items())
    how = (
        f'trust them with [projects."{workspace}"] trust_mcp = true and mcp_server_hashes = {{ {pins} }} '
        "in your config (the interactive vtcode asks), or run with --trust-project-mcp"
    )
    if _trusts_path(settings, workspace):
        return (
            f"{workspace / PROJECT_FILE} has MCP servers that are new or changed since you trusted this "
            f"project, not started ({shown}): {how}"
        )
    return f"{workspace / PROJECT_FILE} defines MCP servers that were not started ({shown}): {how}"


def _trusts_path(settings: Settings, workspace: Path) -> bool:
    keys = {str(workspace), os.path.realpath(workspace)}
    return any(
        p.trust_mcp for key, p in settings.projects.items() if key in keys or os.path.realpath(key) in keys
    )


def read_project_file(workspace: Path) -> tuple[dict[str, McpServerSettings], list[str]]:
    """The servers of `<workspace>/.mcp.json`, and a diagnostic for each entry that cannot be used."""
    path = workspace / PROJECT_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, IsADirectoryError):
        # A folder is the sandbox's placeholder for a `.mcp.json` that does not exist.
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
