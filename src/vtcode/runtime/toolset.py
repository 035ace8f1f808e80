"""The tools offered to the model in one session, and the resources they hold (command sessions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from vtcode.config.schema import Settings
from vtcode.runtime.emitter import Emitter
from vtcode.tools.base import Tool
from vtcode.tools.exec_command import ExecCommandTool
from vtcode.tools.registry import workspace_tools


@dataclass
class Toolset:
    """Every tool of a session; `aclose` releases what they hold (e.g. kills command sessions)."""

    tools: list[Tool] = field(default_factory=list)

    async def aclose(self) -> None:
        """Release resources held by the tools."""


def build_toolset(settings: Settings, workspace: Path, emitter: Emitter) -> Toolset:
    """The tools for a session in `workspace`."""
    del workspace, emitter  # used once command sessions stream progress and spool to the workspace
    exec_tool = ExecCommandTool(default_time_limit=settings.timeouts.default_ceiling_seconds)
    return Toolset(tools=[*workspace_tools(), exec_tool])
