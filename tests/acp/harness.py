"""A real `vtcode acp` subprocess driven by the ACP SDK's client side, against a loopback model server."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from acp import spawn_agent_process
from acp.client.connection import ClientSideConnection
from acp.interfaces import Client
from acp.schema import (
    AgentMessageChunk,
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    FileSystemCapabilities,
    Implementation,
    PermissionOption,
    ReadTextFileResponse,
    RequestPermissionResponse,
    TextContentBlock,
    ToolCallProgress,
    ToolCallStart,
    ToolCallUpdate,
    WriteTextFileResponse,
)

from tests.conftest import VtcodeRunner
from vtcode.testing.server import WireServer
from vtcode.testing.wire import cli_args, cli_env


@dataclass
class EditorClient:
    """What an editor does: records updates, answers permissions with `choice`, serves `buffers`.

    `choice` None never answers a permission request (a dialog left open).
    """

    choice: str | None = "allow-once"
    buffers: dict[str, str] = field(default_factory=dict)
    updates: list[Any] = field(default_factory=list)
    permissions: list[tuple[ToolCallUpdate, list[PermissionOption]]] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)
    writes: dict[str, str] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        """Record an update."""
        self.updates.append(update)
        self.changed.set()

    async def request_permission(
        self, session_id: str, tool_call: ToolCallUpdate, options: list[PermissionOption], **kwargs: Any
    ) -> RequestPermissionResponse:
        """Answer with the configured option (or wait for ever)."""
        self.permissions.append((tool_call, options))
        self.changed.set()
        if self.choice is None:
            await asyncio.Event().wait()
        if self.choice == "cancelled":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=str(self.choice))
        )

    async def read_text_file(
        self, session_id: str, path: str, line: int | None = None, limit: int | None = None, **kwargs: Any
    ) -> ReadTextFileResponse:
        """The editor's buffer of `path` (its unsaved text), else the file on disk."""
        self.reads.append(path)
        text = self.buffers[path] if path in self.buffers else await asyncio.to_thread(Path(path).read_text)
        return ReadTextFileResponse(content=text)

    async def write_text_file(
        self, session_id: str, path: str, content: str, **kwargs: Any
    ) -> WriteTextFileResponse:
        """Write through the editor (kept as a buffer and saved)."""
        self.writes[path] = content
        self.buffers[path] = content
        await asyncio.to_thread(Path(path).write_text, content)
        return WriteTextFileResponse()

    def text(self) -> str:
        """The agent message text streamed so far."""
        return "".join(
            u.content.text
            for u in self.updates
            if isinstance(u, AgentMessageChunk) and isinstance(u.content, TextContentBlock)
        )

    def chunks(self) -> list[str]:
        """The agent message chunks, one per update."""
        return [
            u.content.text
            for u in self.updates
            if isinstance(u, AgentMessageChunk) and isinstance(u.content, TextContentBlock)
        ]

    def tool_updates(self) -> list[ToolCallStart | ToolCallProgress]:
        """`tool_call` and `tool_call_update` notifications in order."""
        return [u for u in self.updates if isinstance(u, ToolCallStart | ToolCallProgress)]

    async def wait_for(self, check: Any) -> None:
        """Wait until `check()` is true (a minute at most: a hung agent fails the test, not the run)."""
        async with asyncio.timeout(60):
            while not check():
                self.changed.clear()
                await self.changed.wait()


@dataclass
class Agent:
    """A connected `vtcode acp` process."""

    conn: ClientSideConnection
    process: asyncio.subprocess.Process
    client: EditorClient
    workspace: Path

    async def start(self, *, fs: bool = False) -> str:
        """initialize + session/new in the workspace; the session id."""
        await self.conn.initialize(
            protocol_version=1,
            client_capabilities=ClientCapabilities(
                fs=FileSystemCapabilities(read_text_file=fs, write_text_file=fs), terminal=False
            ),
            client_info=Implementation(name="test-editor", title="Test Editor", version="1"),
        )
        session = await self.conn.new_session(cwd=str(self.workspace), mcp_servers=[])
        return session.session_id


@asynccontextmanager
async def acp_agent(
    vtcode: VtcodeRunner,
    workspace: Path,
    server: Any,
    client: EditorClient | None = None,
    extra: Sequence[str] = (),
) -> AsyncIterator[Agent]:
    """`vtcode acp` in `workspace`, pointed at the loopback `server` (chat wire)."""
    editor = client or EditorClient()
    argv = [*vtcode.command("acp", *cli_args("chat"), *extra)]
    async with spawn_agent_process(
        cast(Client, editor),
        argv[0],
        *argv[1:],
        env=vtcode.env(cli_env("chat", server)),
        cwd=workspace,
        transport_kwargs={"stderr": None, "shutdown_timeout": 20.0},
    ) as (conn, process):
        yield Agent(conn, process, editor, workspace)


def python() -> str:
    """The interpreter the tests run under."""
    return sys.executable


def raw_acp(vtcode: VtcodeRunner, workspace: Path, server: WireServer) -> subprocess.Popen[str]:
    """`vtcode acp` with text pipes on all three streams, for tests that write the JSON-RPC lines."""
    return subprocess.Popen(
        vtcode.command("acp", *cli_args("chat")),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=workspace,
        env=vtcode.env(cli_env("chat", server)),
    )
