"""Where subagent definition files live, and whether any of those folders exists (a few `stat`s)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from vtcode.core.agents.definitions import Origin
    from vtcode.core.agents.foreign import Dialect


class AgentFolder(NamedTuple):
    """A folder of definition files: whose, where, and the format of its files."""

    origin: Origin
    path: Path
    dialect: Dialect

    @property
    def suffix(self) -> str:
        """The definition files' suffix (Codex's are TOML)."""
        return ".toml" if self.dialect == "codex" else ".md"


def agent_folders(workspace: Path, vtcode_home: Path, user_home: Path | None) -> list[AgentFolder]:
    """The folders searched, highest precedence first: the project's (vtcode, Claude Code, Codex,
    Gemini CLI, opencode), then the user's in the same order."""
    folders = [
        AgentFolder("project", workspace / ".vtcode" / "agents", "claude"),
        AgentFolder("project", workspace / ".claude" / "agents", "claude"),
        AgentFolder("project", workspace / ".codex" / "agents", "codex"),
        AgentFolder("project", workspace / ".gemini" / "agents", "gemini"),
        AgentFolder("project", workspace / ".opencode" / "agent", "opencode"),
        AgentFolder("project", workspace / ".opencode" / "agents", "opencode"),
        AgentFolder("user", vtcode_home / "agents", "claude"),
    ]
    if user_home is not None:
        folders += [
            AgentFolder("user", user_home / ".claude" / "agents", "claude"),
            AgentFolder("user", user_home / ".codex" / "agents", "codex"),
            AgentFolder("user", user_home / ".gemini" / "agents", "gemini"),
            AgentFolder("user", user_home / ".config" / "opencode" / "agent", "opencode"),
            AgentFolder("user", user_home / ".config" / "opencode" / "agents", "opencode"),
        ]
    return folders


def any_agent_folder(workspace: Path, vtcode_home: Path, user_home: Path | None) -> bool:
    """Whether any definition folder exists: without one, a session has only the built-in types."""
    return any(os.path.isdir(folder.path) for folder in agent_folders(workspace, vtcode_home, user_home))
