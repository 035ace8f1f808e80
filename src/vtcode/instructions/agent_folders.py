"""Where subagent definition files live, and whether any of those folders exists (a few `stat`s)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vtcode.core.agents.definitions import Origin


def agent_folders(workspace: Path, vtcode_home: Path, user_home: Path | None) -> list[tuple[Origin, Path]]:
    """The folders searched, highest precedence first."""
    folders: list[tuple[Origin, Path]] = [
        ("project", workspace / ".vtcode" / "agents"),
        ("project", workspace / ".claude" / "agents"),
        ("user", vtcode_home / "agents"),
    ]
    if user_home is not None:
        folders.append(("user", user_home / ".claude" / "agents"))
    return folders


def any_agent_folder(workspace: Path, vtcode_home: Path, user_home: Path | None) -> bool:
    """Whether any definition folder exists: without one, a session has only the built-in types."""
    return any(os.path.isdir(folder) for _, folder in agent_folders(workspace, vtcode_home, user_home))
