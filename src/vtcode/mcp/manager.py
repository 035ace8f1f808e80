"""Every MCP server of a session: started together, tools listed in one stable order, closed together."""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import mcp_types

from vtcode.config.schema import McpServerSettings, McpSettings
from vtcode.core.mcp_names import assign_names
from vtcode.core.tool_schema import NormalisedSchema, normalise_schema
from vtcode.mcp.connection import Connection
from vtcode.mcp.servers import ServerPlan
from vtcode.mcp.tool import McpTool
from vtcode.protocol.model import ToolKind, ToolSpec


@dataclass(frozen=True)
class ServerStatus:
    """What `vtcode mcp list` and the join notices say about one server."""

    name: str
    transport: str
    target: str
    origin: str
    state: str
    tools: int
    error: str


class McpManager:
    """The connections of one session (or of `vtcode mcp list`)."""

    def __init__(
        self, plan: ServerPlan, *, env: Mapping[str, str], workspace: Path, settings: McpSettings
    ) -> None:
        self.changed = asyncio.Event()
        self.connections = [
            Connection(d, env=env, workspace=workspace, on_change=self.changed.set) for d in plan.servers
        ]
        self._settings = settings
        self._schemas: dict[tuple[str, str, int], NormalisedSchema] = {}

    def start(self) -> None:
        """Start every server at once, in the background."""
        for connection in self.connections:
            connection.start()

    async def wait_started(self, within: float) -> None:
        """Wait until every server is ready or failed, for at most `within` seconds."""
        if self.connections:
            waits = [asyncio.ensure_future(c.wait_ready()) for c in self.connections]
            await asyncio.wait(waits, timeout=within)
            for wait in waits:
                wait.cancel()

    def tools(self) -> list[McpTool]:
        """The tools of every server that listed them, sorted by model-facing name.

        A server that died keeps its tools: the next call starts it again.
        """
        listed: list[tuple[Connection, mcp_types.Tool]] = [
            (c, t)
            for c in self.connections
            if c.generation > 0
            for t in c.tools
            if _wanted(c.definition.settings, t.name)
        ]
        names = assign_names((c.name, t.name) for c, t in listed)
        tools = [self._tool(c, t, names[(c.name, t.name)]) for c, t in listed]
        return sorted(tools, key=lambda tool: tool.spec.name)

    def statuses(self) -> list[ServerStatus]:
        """Each server's state, tool count and last error."""
        return [
            ServerStatus(
                name=c.name,
                transport=c.definition.transport,
                target=c.definition.target,
                origin=c.definition.origin,
                state=c.state,
                tools=len([t for t in c.tools if _wanted(c.definition.settings, t.name)]),
                error=c.error,
            )
            for c in self.connections
        ]

    async def aclose(self) -> None:
        """Close every server (stdio servers with their process trees)."""
        await asyncio.gather(*(c.aclose() for c in self.connections), return_exceptions=True)

    def _tool(self, connection: Connection, tool: mcp_types.Tool, name: str) -> McpTool:
        key = (connection.name, tool.name, connection.generation)
        schema = self._schemas.get(key)
        if schema is None:
            schema = self._schemas[key] = normalise_schema(tool.input_schema)
        hints = tool.annotations
        read_only = bool(hints is not None and hints.read_only_hint)
        kind: ToolKind = "read" if read_only and self._settings.trust_read_only_hints else "external"
        title = tool.title or (hints.title if hints is not None else None)
        description = tool.description or title or f"{tool.name} from the MCP server {connection.name}"
        return McpTool(
            connection=connection,
            remote_name=tool.name,
            spec=ToolSpec(
                name=name,
                description=f"[MCP server {connection.name}] {description}",
                parameters=schema.schema,
            ),
            kind=kind,
            optional=schema.optional,
        )


def _wanted(settings: McpServerSettings, tool: str) -> bool:
    if settings.enabled_tools is not None and not any(
        fnmatch.fnmatchcase(tool, p) for p in settings.enabled_tools
    ):
        return False
    return not any(fnmatch.fnmatchcase(tool, p) for p in settings.disabled_tools)
