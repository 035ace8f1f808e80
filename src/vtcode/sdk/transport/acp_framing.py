"""Newline-delimited JSON-RPC over a child's pipes, without a line cap, for the ACP client connection.

A line is read in chunks however long it is (a 50 MiB tool result is one message), so there is no
`LimitOverrunError` to kill the reader, the failure the stdio SDKs of other agents are known for. The
session's `_vtcode/event` notifications are taken off here, in the order they arrive, and decoded once
straight into the runtime's event types; every other message goes on to the ACP connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import msgspec

from vtcode.protocol.acp_messages import EventParams
from vtcode.protocol.acp_methods import EVENT

log = logging.getLogger(__name__)

# The server writes `{"jsonrpc":"2.0","method":"_vtcode/event",...`: the method shows this early.
_EVENT_MARK = f'"method":"_{EVENT}"'.encode()
_MARK_WINDOW = 64


class _EventNote(msgspec.Struct, frozen=True):
    method: str
    params: EventParams
    jsonrpc: str = "2.0"


_event_decoder = msgspec.json.Decoder(_EventNote)
_any_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


class PipeFraming:
    """The ACP `Transport` (`send`, `receive`, `close`) over a child's stdout and stdin."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        on_event: Callable[[EventParams], None],
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._on_event = on_event
        self._lock = asyncio.Lock()
        self._closed = False
        self.ended = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        """Write one message as one line (raises `ConnectionError` once the child is gone)."""
        data = _encoder.encode(message) + b"\n"
        async with self._lock:
            try:
                if self._closed or self._writer.is_closing():
                    raise ConnectionError("the vtcode acp child's input is closed")
                self._writer.write(data)
                await self._writer.drain()
            except (ConnectionError, OSError) as exc:
                if "method" not in message:
                    # An answer to a child that is gone: nobody waits for it.
                    log.debug("answer to the vtcode acp child dropped: %s", exc)
                    return
                raise ConnectionError(f"the vtcode acp child's input is closed: {exc}") from exc

    async def receive(self) -> dict[str, Any] | None:
        """The next message for the ACP connection; None at end of output (the child closed it)."""
        while True:
            line = await self._read_line()
            if not line:
                self.ended.set()
                return None
            if len(line) <= 2 and not line.strip():
                continue
            if _EVENT_MARK in line[:_MARK_WINDOW]:
                try:
                    note = _event_decoder.decode(line)
                except msgspec.ValidationError:
                    log.warning("an event the SDK cannot read was skipped", exc_info=True)
                    continue
                self._on_event(note.params)
                continue
            try:
                message = _any_decoder.decode(line)
            except msgspec.DecodeError:
                log.warning("the vtcode acp child wrote a line that is not JSON: %.200r", line)
                continue
            if isinstance(message, dict):
                return message

    async def close(self) -> None:
        """Stop writing and close the child's input (it shuts down at end of input)."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                self._writer.close()

    async def _read_line(self) -> bytearray:
        # One growing buffer, decoded in place: a long line is held once, not as chunks plus a join.
        buffer = bytearray()
        try:
            while True:
                try:
                    buffer += await self._reader.readuntil(b"\n")
                    return buffer
                except asyncio.LimitOverrunError as exc:
                    buffer += await self._reader.readexactly(exc.consumed)
        except asyncio.IncompleteReadError as exc:
            buffer += exc.partial
            return buffer
        except (ConnectionError, OSError):
            return bytearray()
