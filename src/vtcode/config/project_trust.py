"""Whether the user trusted a workspace, without importing the workspace-file rules (start-up time)."""

from __future__ import annotations

import os
from pathlib import Path

from vtcode.config.schema import Settings


def project_trusted(settings: Settings, workspace: Path) -> bool:
    """Whether the user trusted this workspace (`[projects."<path>"] trust_mcp = true`, the MCP record):
    only then do project skills and commands run shell blocks, hooks and `allowed-tools`."""
    keys = {str(workspace), os.path.realpath(workspace)}
    return any(
        project.trust_mcp
        for key, project in settings.projects.items()
        if key in keys or os.path.realpath(key) in keys
    )
