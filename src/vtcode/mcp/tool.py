"""An MCP server's tool as a vtcode tool: namespaced name, provider-safe schema, bounded result."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec

from vtcode.core.tool_schema import Path as SchemaPath
from vtcode.core.tool_schema import drop_unset
from vtcode.mcp.connection import Connection, McpCallError
from vtcode.mcp.result import render_result
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome
from vtcode.tools.bounded_output import bounded

_SHOWN_ARGUMENTS = 160


@dataclass(frozen=True)
class McpTool:
    """One tool of one server, offered to the model as `spec.name` (`mcp__SERVER__TOOL`)."""

    connection: Connection
    remote_name: str
    spec: ToolSpec
    kind: ToolKind
    # Argument paths the model sends as `null` when it means "not given" (see core.tool_schema).
    optional: frozenset[SchemaPath] = frozenset()

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """`server.tool {args}` for people; the tool name is what approval rules match."""
        shown = json.dumps(arguments, ensure_ascii=False, sort_keys=True)
        if len(shown) > _SHOWN_ARGUMENTS:
            shown = shown[: _SHOWN_ARGUMENTS - 1] + "…"
        return CallDescription(
            display=f"{self.connection.name}.{self.remote_name} {shown}", subject=self.spec.name
        )

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Call the tool; failures of every kind come back as an error result the model can read."""
        try:
            result = await self.connection.call(self.remote_name, drop_unset(arguments, self.optional))
        except McpCallError as exc:
            return ToolOutcome(content=str(exc), is_error=True)
        rendered = render_result(result)
        outcome = bounded(
            rendered.text, ctx, is_error=bool(result.is_error), name=self.spec.name, spool="mcp"
        )
        return msgspec.structs.replace(outcome, images=rendered.images)
