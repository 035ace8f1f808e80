"""`vtcode acp`: serve the Agent Client Protocol on stdin/stdout until the editor closes stdin."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import cast

from acp.agent.connection import AgentSideConnection
from acp.interfaces import Agent

from vtcode.acp.agent import OptionsFactory, VtcodeAgent
from vtcode.acp.transport import StdioTransport, protocol_output, stdin_reader


async def serve(options: OptionsFactory) -> int:
    """Answer requests until end of input or SIGTERM/SIGINT, then shut every session down."""
    output = protocol_output()
    transport = StdioTransport(await stdin_reader(), output)
    agent = VtcodeAgent(options)
    # The SDK routes only the methods an agent has; the protocol class lists every optional one too.
    conn = AgentSideConnection(cast(Agent, agent), transport, listening=False)
    loop = asyncio.get_running_loop()
    listening = asyncio.ensure_future(conn.listen())
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, listening.cancel)
    try:
        with contextlib.suppress(asyncio.CancelledError):
            await listening
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        await agent.aclose()
        await conn.close()
        output.close()
    return 0
