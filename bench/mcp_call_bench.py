"""Round trip of a trivial MCP tool call through vtcode versus the same call made directly with the SDK.

Both talk to the same kind of server (the test suite's demo server over stdio, one process each),
calling `echo` with a short text. vtcode's path is the whole tool dispatch: approval decision, item
events, argument clean-up, result rendering and bounding. The direct path is `Client.call_tool`.
Figures are medians over many calls and the ratio of vtcode to direct, both measured in this run.
Run: .venv/bin/python bench/mcp_call_bench.py [--calls 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters
from vtcode.config.schema import McpServerSettings, McpSettings
from vtcode.core.approvals import ApprovalPolicy
from vtcode.mcp.manager import McpManager
from vtcode.mcp.servers import ServerDefinition, ServerPlan
from vtcode.protocol.messages import ToolCall
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.tools.base import ToolContext

SERVER = Path(__file__).resolve().parents[1] / "tests" / "mcp" / "demo_server.py"


async def direct(calls: int) -> list[float]:
    """Seconds per `call_tool` made with the SDK client."""
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    times = []
    async with Client(params, mode="legacy") as client:
        await client.call_tool("echo", {"text": "ping"})
        for _ in range(calls):
            started = time.perf_counter()
            await client.call_tool("echo", {"text": "ping"})
            times.append(time.perf_counter() - started)
    return times


async def through_vtcode(calls: int, workspace: Path) -> list[float]:
    """Seconds per call of `mcp__demo__echo` through vtcode's tool dispatcher."""
    definition = ServerDefinition("demo", McpServerSettings(command=sys.executable, args=(str(SERVER),)))
    manager = McpManager(
        ServerPlan(servers=(definition,)), env={}, workspace=workspace, settings=McpSettings()
    )
    manager.start()
    await manager.wait_started(30)
    dispatcher = ToolDispatcher(
        tools=manager.tools(),
        context=ToolContext(workspace=workspace),
        policy=ApprovalPolicy(mode="full-auto", headless=True),
        emitter=Emitter(clock=time.time),
    )
    arguments = json.dumps({"text": "ping", "times": None})
    times = []
    try:
        for n in range(calls + 1):
            call = ToolCall(id=f"c{n}", name="mcp__demo__echo", arguments=arguments)
            started = time.perf_counter()
            results = await dispatcher.run_calls([call], lambda _messages: None)
            elapsed = time.perf_counter() - started
            assert results[0].content == "ping", results[0].content
            if n:
                times.append(elapsed)
    finally:
        await manager.aclose()
    return times


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=300)
    calls = parser.parse_args().calls
    with tempfile.TemporaryDirectory() as tmp:
        ours = await through_vtcode(calls, Path(tmp))
    sdk = await direct(calls)
    base = statistics.median(sdk)
    mine = statistics.median(ours)
    print(f"direct SDK call_tool   {base * 1000:7.2f} ms  (baseline)")
    print(f"through vtcode         {mine * 1000:7.2f} ms  {mine / base:5.2f}x  (target <= 1.5x)")


if __name__ == "__main__":
    asyncio.run(main())
