"""An MCP server with one tool that writes a file: an edit vtcode's own tools never see."""

from __future__ import annotations

from pathlib import Path

from mcp.server.mcpserver import MCPServer

server = MCPServer("writer")


@server.tool()
def write_text(path: str, text: str) -> str:
    """Write `text` to the absolute `path`."""
    Path(path).write_text(text)
    return f"wrote {path}"


if __name__ == "__main__":
    server.run()
