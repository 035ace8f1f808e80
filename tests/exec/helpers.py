"""Drive command sessions in-process the way the model does: through the two tools, with JSON results."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import psutil

from vtcode.exec.manager import ExecSettings, SessionManager, random_session_id
from vtcode.tools.base import ToolContext
from vtcode.tools.exec_command import ExecCommandTool
from vtcode.tools.write_stdin import WriteStdinTool

# Tests share the pytest process: only the tests about escapees make it a child subreaper.
DEFAULTS = ExecSettings(subreaper=False)


class Harness:
    """A session manager for one temporary workspace, with the model-facing tools on top."""

    def __init__(
        self,
        workspace: Path,
        settings: ExecSettings = DEFAULTS,
        *,
        new_id: Callable[[], str] | None = None,
    ) -> None:
        self.workspace = workspace
        self.manager = SessionManager(
            workspace, dict(os.environ), settings, new_id=new_id or random_session_id
        )
        self.exec_tool = ExecCommandTool(self.manager)
        self.stdin_tool = WriteStdinTool(self.manager)
        self.ctx = ToolContext(workspace=workspace)

    async def run(self, **arguments: Any) -> dict[str, Any]:
        """Call exec_command; the parsed JSON result."""
        outcome = await self.exec_tool.run(arguments, self.ctx)
        result: dict[str, Any] = json.loads(outcome.content)
        return result

    async def stdin(self, **arguments: Any) -> dict[str, Any]:
        """Call write_stdin; the parsed JSON result."""
        outcome = await self.stdin_tool.run(arguments, self.ctx)
        result: dict[str, Any] = json.loads(outcome.content)
        return result

    def spool(self, result: dict[str, Any]) -> Path:
        """The spool file of the session a result belongs to."""
        return self.workspace / ".vtcode" / "context" / "tool_outputs" / f"{result['session_id']}.log"

    async def __aenter__(self) -> Harness:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.manager.aclose()


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie waiting to be reaped."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def group_members(pgid: int) -> list[int]:
    """Living (non-zombie) processes whose process group is `pgid`."""
    found = []
    for proc in psutil.process_iter():
        try:
            if os.getpgid(proc.pid) == pgid and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc.pid)
        except (psutil.Error, OSError):
            continue
    return found


def _read(path: Path) -> str:
    return path.read_text().strip() if path.exists() else ""


async def read_pid(path: Path, attempts: int = 500) -> int:
    """The pid a command wrote to `path`, once it is there."""
    for _ in range(attempts):
        text = _read(path)
        if text:
            return int(text)
        await asyncio.sleep(0.01)
    raise AssertionError(f"{path} was never written")


async def gone(pid: int, attempts: int = 300) -> bool:
    """Whether the process ends soon (the kernel needs a moment after SIGKILL)."""
    for _ in range(attempts):
        if not alive(pid):
            return True
        await asyncio.sleep(0.01)
    return False


def real(path: Path) -> Path:
    """`path` with every symlink resolved (how a child's `pwd` and WORKSPACE_DIR show it)."""
    return path.resolve()
