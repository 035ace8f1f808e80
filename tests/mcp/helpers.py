"""Real MCP servers for the tests: the demo server over stdio or streamable HTTP, and session options."""

from __future__ import annotations

import dataclasses
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from tests.runtime.session_helpers import options
from vtcode.config.schema import ApprovalSettings, McpServerSettings, McpSettings
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import ScriptToolCall
from vtcode.testing.server import WireServer

DEMO_SERVER = Path(__file__).with_name("demo_server.py")


def demo_stdio(*extra: str, **settings: Any) -> McpServerSettings:
    """The demo server run over stdio by this Python."""
    return McpServerSettings(command=sys.executable, args=(str(DEMO_SERVER), *extra), **settings)


def call(name: str, arguments: dict[str, object], call_id: str) -> ScriptToolCall:
    """A scripted model's tool call."""
    return ScriptToolCall(name, json.dumps(arguments), id=call_id)


def tool_results(body: dict[str, Any]) -> dict[str, str]:
    """The tool messages of a Chat request body, by call id."""
    return {m["tool_call_id"]: m["content"] for m in body["messages"] if m["role"] == "tool"}


def tool_names(body: dict[str, Any]) -> list[str]:
    """The names of the tools a Chat request offered."""
    return [t["function"]["name"] for t in body.get("tools", [])]


def mcp_options(
    workspace: Path,
    home: Path,
    server: WireServer,
    servers: dict[str, McpServerSettings],
    *,
    approval: str = "full-auto",
    grace: float = 20.0,
    deny: tuple[str, ...] = (),
    allow: tuple[str, ...] = (),
    headless: bool = True,
    trust_project_mcp: bool = False,
) -> SessionOptions:
    """Session options with `servers` configured as `[mcp_servers]`."""
    base = options(workspace, home, server, approval=approval, headless=headless)
    settings = msgspec.structs.replace(
        base.settings,
        mcp_servers=servers,
        mcp=McpSettings(startup_grace_seconds=grace),
        approvals=ApprovalSettings(allow=allow, deny=deny),
    )
    return dataclasses.replace(base, settings=settings, trust_project_mcp=trust_project_mcp)


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def demo_http() -> Iterator[str]:
    """The demo server on streamable HTTP on 127.0.0.1; yields its endpoint URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(DEMO_SERVER), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the demo HTTP server did not start (exit {proc.poll()})") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
