"""A small MCP server written with the SDK's server API, run over stdio or streamable HTTP by the tests.

`python demo_server.py [--http PORT] [--hang] [--pid-file PATH]`: `--hang` never answers (a server that
hangs at start); `--pid-file` records the server's pid so a test can kill it or check it is gone.
"""

from __future__ import annotations

import argparse
import base64
import os
import sys
import time
from pathlib import Path

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.utilities.types import Image
from mcp_types import ToolAnnotations

# A 1x1 PNG.
PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)

server = MCPServer("demo")


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def echo(text: str, times: int = 1) -> str:
    """Return `text`, repeated `times` times."""
    return " ".join([text] * times)


@server.tool()
def big(lines: int) -> str:
    """Return `lines` numbered lines."""
    return "\n".join(f"line {n:06d} of the big output" for n in range(1, lines + 1))


@server.tool()
def fail(reason: str) -> str:
    """Always fail with `reason`."""
    raise ValueError(reason)


@server.tool()
def pixel() -> Image:
    """Return a one-pixel PNG."""
    return Image(data=PIXEL, format="png")


@server.tool()
def pid() -> int:
    """The server's process id."""
    return os.getpid()


@server.tool()
async def sleepy(seconds: float) -> str:
    """Sleep, then answer."""
    await anyio.sleep(seconds)
    return "awake"


@server.tool()
def whoami(ctx: Context) -> str:
    """The Authorization header of the HTTP request that called this tool."""
    headers = ctx.headers or {}
    return headers.get("authorization", "anonymous")


def secret() -> str:
    """A tool that exists only after `unlock`."""
    return "the secret"


@server.tool()
async def unlock(ctx: Context) -> str:
    """Add the `secret` tool and tell the client that the tool list changed."""
    server.add_tool(secret)
    await ctx.session.send_tool_list_changed()
    return "unlocked"


def main() -> None:
    """Run the server as the options say."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int)
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--pid-file")
    args = parser.parse_args()
    if args.pid_file:
        Path(args.pid_file).write_text(str(os.getpid()))
    if args.hang:
        print("demo server: hanging before it starts", file=sys.stderr, flush=True)
        while True:
            time.sleep(60)
    if args.http:
        server.run("streamable-http", host="127.0.0.1", port=args.http, stateless_http=False)
    else:
        server.run()


if __name__ == "__main__":
    main()
