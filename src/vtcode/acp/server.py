"""`vtcode acp`: serve the Agent Client Protocol on stdin/stdout until the editor closes stdin."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import cast

from acp.agent.connection import AgentSideConnection
from acp.interfaces import Agent

from vtcode.acp.agent import OptionsFactory, VtcodeAgent
from vtcode.acp.transport import StdioTransport, protocol_output, stdin_reader


class _OneLine(logging.Filter):
    """Without VTCODE_DEBUG a logged exception (the SDK logs some) is one line on stderr, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Fold the exception into the message."""
        if record.exc_info and record.exc_info[1] is not None:
            record.msg = f"{record.getMessage()}: {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


def _quiet_tracebacks() -> None:
    root = logging.getLogger()
    if root.level > logging.DEBUG:
        for handler in root.handlers:
            handler.addFilter(_OneLine())


async def serve(options: OptionsFactory) -> int:
    """Answer requests until end of input or SIGTERM/SIGINT, then shut every session down."""
    _quiet_tracebacks()
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
