"""Newline-delimited JSON-RPC over stdio that answers bad input instead of dropping it.

The SDK's own stdio framing logs and skips a line that is not JSON; the protocol wants a parse error
back (id null), and a JSON value that is not a request object gets an invalid-request error. Protocol
messages go to a private copy of the original stdout: file descriptor 1 is pointed at stderr, so
nothing else the process (or a child) prints can corrupt the stream.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any, BinaryIO

# Editors may send whole files (embedded resources) in one line.
LINE_LIMIT = 50 * 1024 * 1024

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def error_response(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    """A JSON-RPC error response."""
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def check_message(raw: bytes) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The message in one line, or (None, the error response to send instead)."""
    try:
        message = json.loads(raw)
    except ValueError as exc:
        return None, error_response(PARSE_ERROR, f"Parse error: {exc}")
    if not isinstance(message, dict):
        return None, error_response(INVALID_REQUEST, "Invalid request: not a JSON-RPC object")
    if "method" in message and not isinstance(message["method"], str):
        return None, error_response(INVALID_REQUEST, "Invalid request: bad method", message.get("id"))
    if "method" not in message and "id" not in message:
        return None, error_response(INVALID_REQUEST, "Invalid request: no method and no id")
    return message, None


class StdioTransport:
    """The SDK's message transport (`send`, `receive`, `close`) over a reader and a protocol output."""

    def __init__(self, reader: asyncio.StreamReader, output: BinaryIO) -> None:
        self._reader = reader
        self._output = output
        self._lock = asyncio.Lock()
        self._closed = False

    async def send(self, message: dict[str, Any]) -> None:
        """Write one message as one line."""
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        async with self._lock:
            if self._closed:
                raise ConnectionError("the protocol output is closed")
            # A blocking write in a thread: a slow editor must not stall the event loop.
            await asyncio.to_thread(self._write, data)

    def _write(self, data: bytes) -> None:
        self._output.write(data)
        self._output.flush()

    async def receive(self) -> dict[str, Any] | None:
        """The next request, notification or response; None at end of input. Bad lines are answered."""
        while True:
            line = await self._read_line()
            if not line:
                return None
            line = line.strip()
            if not line:
                continue
            message, error = check_message(line)
            if message is not None:
                return message
            if error is not None:
                await self.send(error)

    async def close(self) -> None:
        """Stop writing (the output itself belongs to the process)."""
        async with self._lock:
            self._closed = True

    async def _read_line(self) -> bytes:
        chunks: list[bytes] = []
        try:
            while True:
                try:
                    chunks.append(await self._reader.readuntil(b"\n"))
                    return b"".join(chunks)
                except asyncio.LimitOverrunError as exc:
                    chunks.append(await self._reader.readexactly(exc.consumed))
        except asyncio.IncompleteReadError as exc:
            chunks.append(exc.partial)
            return b"".join(chunks)


def protocol_output() -> BinaryIO:
    """A private handle on the original stdout; fd 1 (and `sys.stdout`) now write to stderr."""
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(fd, "wb", buffering=0)


async def stdin_reader() -> asyncio.StreamReader:
    """An asyncio reader of stdin (a pipe, a socket or a terminal; a regular file is read by a thread)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    except ValueError:
        await asyncio.to_thread(_feed_all, loop, reader)
    return reader


def _feed_all(loop: asyncio.AbstractEventLoop, reader: asyncio.StreamReader) -> None:
    data = sys.stdin.buffer.read()
    loop.call_soon_threadsafe(reader.feed_data, data)
    loop.call_soon_threadsafe(reader.feed_eof)
