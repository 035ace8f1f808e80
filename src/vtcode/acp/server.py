"""`vtcode acp`: serve the Agent Client Protocol on stdin/stdout until the editor closes stdin."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import cast

from acp.agent.connection import AgentSideConnection
from acp.interfaces import Agent

from vtcode.acp.agent import ImagesProbe, OptionsFactory, VtcodeAgent
from vtcode.acp.transport import StdioTransport, protocol_output, stdin_reader

# At end of input, running prompts get this long to finish on their own before they are cancelled,
# and a cancelled prompt this long to answer "cancelled".
FINISH_SECONDS = 60.0
CANCEL_SECONDS = 15.0


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


async def serve(options: OptionsFactory, images: ImagesProbe | None = None) -> int:
    """Answer requests until end of input or SIGTERM/SIGINT, then shut every session down; the exit
    status is 0 at end of input and 128 + the signal's number after a signal (130, 143), as for `exec`."""
    _quiet_tracebacks()
    output = protocol_output()
    transport = StdioTransport(await stdin_reader(), output)
    agent = VtcodeAgent(options, images)
    # The SDK routes only the methods an agent has; the protocol class lists every optional one too.
    conn = AgentSideConnection(cast(Agent, agent), transport, listening=False)
    loop = asyncio.get_running_loop()
    listening = asyncio.ensure_future(conn.listen())
    stopped_by: list[int] = []

    def stop(signum: int) -> None:
        stopped_by.append(signum)
        listening.cancel()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop, signum)
    # The SDK reports end of input only once every request read has been answered (see the transport).
    finishing = asyncio.ensure_future(_finish_after_end(listening, transport, agent))
    try:
        with contextlib.suppress(asyncio.CancelledError):
            await listening
    finally:
        finishing.cancel()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        await agent.aclose()
        await conn.close()
        output.close()
    return 128 + stopped_by[0] if stopped_by else 0


async def _finish_after_end(
    listening: asyncio.Future[None], transport: StdioTransport, agent: VtcodeAgent
) -> None:
    """Once the editor closes stdin, running prompts may finish; past a grace they are cancelled."""
    await transport.ended.wait()
    done, _ = await asyncio.wait({listening}, timeout=FINISH_SECONDS)
    if done:
        return
    await agent.cancel_all()
    done, _ = await asyncio.wait({listening}, timeout=CANCEL_SECONDS)
    if not done:
        listening.cancel()
