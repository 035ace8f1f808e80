"""Command sessions under the OS sandbox, driven through the model-facing tools."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from vtcode.core.sandbox_policy import SandboxMode, SandboxPolicy
from vtcode.exec.landlock import abi_version
from vtcode.exec.manager import ExecSettings, SessionManager
from vtcode.exec.namespaces import user_namespaces_work
from vtcode.tools.base import ToolContext
from vtcode.tools.exec_command import ExecCommandTool
from vtcode.tools.write_stdin import WriteStdinTool

needs_landlock = pytest.mark.skipif(abi_version() < 1, reason="this kernel has no Landlock")
needs_userns = pytest.mark.skipif(
    not user_namespaces_work(), reason="this system does not allow unprivileged user namespaces"
)


def sandbox_env(home: Path) -> dict[str, str]:
    """The environment commands get: the test's, with HOME given and no TMPDIR of the test runner's."""
    env = {k: v for k, v in os.environ.items() if k != "TMPDIR"}
    env["HOME"] = str(home)
    return env


class SandboxHarness:
    """A session manager confined by `policy` in one workspace, and its two tools."""

    def __init__(
        self,
        workspace: Path,
        policy: SandboxPolicy,
        *,
        home: Path,
        missing: frozenset[str] = frozenset(),
    ) -> None:
        self.workspace = workspace
        self.notices: list[str] = []
        settings = ExecSettings(subreaper=False, sandbox=policy, sandbox_missing=missing)
        self.manager = SessionManager(workspace, sandbox_env(home), settings, notify=self.notices.append)
        self.exec_tool = ExecCommandTool(self.manager)
        self.stdin_tool = WriteStdinTool(self.manager)
        self.ctx = ToolContext(workspace=workspace)

    async def run(self, cmd: str, **arguments: Any) -> dict[str, Any]:
        """Call exec_command and wait up to 20 s; the parsed JSON result."""
        arguments.setdefault("yield_time_ms", 20_000)
        outcome = await self.exec_tool.run({"cmd": cmd, **arguments}, self.ctx)
        result: dict[str, Any] = json.loads(outcome.content)
        return result

    async def stdin(self, **arguments: Any) -> dict[str, Any]:
        """Call write_stdin; the parsed JSON result."""
        outcome = await self.stdin_tool.run(arguments, self.ctx)
        result: dict[str, Any] = json.loads(outcome.content)
        return result

    async def aclose(self) -> None:
        """End every session and the sandbox."""
        await self.manager.aclose()


def policy(
    mode: SandboxMode = "workspace-write", *, network: bool = False, roots: tuple[str, ...] = ()
) -> SandboxPolicy:
    """A sandbox policy for a test."""
    return SandboxPolicy(mode=mode, network=network, writable_roots=roots)


def git_workspace(path: Path) -> Path:
    """A workspace with a git repository (hooks folder, config) and a vtcode.toml."""
    path.mkdir(parents=True, exist_ok=True)
    (path / ".git" / "hooks").mkdir(parents=True)
    (path / ".git" / "config").write_text("[core]\n\trepositoryformatversion = 0\n")
    (path / "vtcode.toml").write_text("[agent]\n")
    return path
