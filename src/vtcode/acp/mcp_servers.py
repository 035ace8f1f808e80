"""MCP servers an editor passes with a session, as `[mcp_servers]` entries started like configured ones."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import msgspec
from acp.schema import HttpMcpServer, McpServerStdio

from vtcode.config.schema import McpServerSettings, Settings

log = logging.getLogger(__name__)


def server_settings(servers: Sequence[Any]) -> dict[str, McpServerSettings]:
    """Stdio and streamable HTTP servers by name; other transports are skipped with a warning."""
    found: dict[str, McpServerSettings] = {}
    for server in servers:
        if isinstance(server, McpServerStdio):
            found[server.name] = McpServerSettings(
                command=server.command,
                args=tuple(server.args),
                env={v.name: v.value for v in server.env or []},
            )
        elif isinstance(server, HttpMcpServer):
            found[server.name] = McpServerSettings(
                url=server.url, headers={h.name: h.value for h in server.headers or []}
            )
        else:
            log.warning("MCP server %r skipped: its transport is not supported", getattr(server, "name", "?"))
    return found


def with_servers(settings: Settings, servers: Sequence[Any]) -> Settings:
    """`settings` with the editor's servers added (a configured server of the same name wins)."""
    extra = server_settings(servers)
    if not extra:
        return settings
    return msgspec.structs.replace(settings, mcp_servers={**extra, **settings.mcp_servers})
