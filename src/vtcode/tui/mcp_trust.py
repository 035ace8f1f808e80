"""The project-trust dialog: start the MCP servers a repository's `.mcp.json` defines, or not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from vtcode.config.schema import McpServerSettings
from vtcode.mcp.servers import ServerDefinition
from vtcode.tui.confirm_dialog import ConfirmDialog
from vtcode.tui.safe import safe_text

TrustAnswer = Literal["always", "session", "no"]


class McpTrustScreen(ConfirmDialog[TrustAnswer]):
    """Lists what the project's `.mcp.json` would start; dismissed with the user's answer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "grant('always')", "trust this project"),
        Binding("s", "grant('session')", "this session only"),
        Binding("n,escape", "decline('no')", "do not start them"),
    ]

    def __init__(self, workspace: str, servers: Mapping[str, McpServerSettings]) -> None:
        super().__init__()
        self.workspace = workspace
        self.servers = dict(servers)

    def body(self) -> Text:
        """The question, the programs, and the keys that answer it."""
        body = Text()
        body.append("Start this project's MCP servers?\n", style="bold")
        body.append(f"{safe_text(self.workspace)}/.mcp.json would start:\n", style="dim")
        for name, server in self.servers.items():
            body.append(f"  {safe_text(name)}: {safe_text(ServerDefinition(name, server).target)}\n")
        body.rstrip()
        return body

    def details(self) -> ComposeResult:
        """The keys that answer, kept on screen however long the list is."""
        keys = Text()
        keys.append("[a] trust this project (saved in your config)   ", style="green")
        keys.append("[s] this session only\n", style="green")
        keys.append("[n] / [Esc] do not start them", style="red")
        yield Static(keys, id="approval-keys")
