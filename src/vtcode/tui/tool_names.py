"""Tool calls as people name them: "Run a command", not `exec_command`."""

from __future__ import annotations

_TITLES: dict[str, str] = {
    "exec_command": "Run a command",
    "write_stdin": "Type into a running command",
    "apply_patch": "Edit files",
    "write_file": "Write a file",
    "read_file": "Read a file",
    "list_files": "List files",
    "grep_files": "Search files",
    "recall_history": "Recall earlier history",
}

_KIND_TITLES: dict[str, str] = {
    "command": "Run a command",
    "session_input": "Type into a running command",
    "edit": "Edit files",
    "read": "Read",
    "external": "Use an external tool",
}


def tool_title(tool: str, kind: str = "") -> str:
    """A sentence-case title for a call of `tool` (MCP tools keep their name after the title)."""
    if tool in _TITLES:
        return _TITLES[tool]
    if tool.startswith("mcp__"):
        server, _, name = tool.removeprefix("mcp__").partition("__")
        return f"Use {name or tool} from the MCP server {server}"
    return _KIND_TITLES.get(kind, f"Use {tool}")
