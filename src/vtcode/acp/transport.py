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
import stat
import sys
from typing import Any, BinaryIO

# Editors may send whole files (embedded resources) in one line.
LINE_LIMIT = 50 * 1024 * 1024

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603


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
        # Requests handed to the SDK and not yet answered: at end of input they are still owed a reply.
        self._unanswered: set[str] = set()
        # Requests we sent the editor, by key: after end of input nobody will answer them.
        self._asked: dict[str, Any] = {}
        self._sent = asyncio.Event()
        self.ended = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        """Write one message as one line."""
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        async with self._lock:
            if self._closed:
                raise ConnectionError("the protocol output is closed")
            # A blocking write in a thread: a slow editor must not stall the event loop.
            await asyncio.to_thread(self._write, data)
        if "id" in message:
            if "method" in message:
                self._asked[_key(message["id"])] = message["id"]
            else:
                self._unanswered.discard(_key(message["id"]))
            self._sent.set()

    def _write(self, data: bytes) -> None:
        self._output.write(data)
        self._output.flush()

    async def receive(self) -> dict[str, Any] | None:
        """The next request, notification or response; None at end of input. Bad lines are answered."""
        while True:
            line = b"" if self.ended.is_set() else await self._read_line()
            if not line:
                self.ended.set()
                return await self._after_end()
            line = line.strip()
            if not line:
                continue
            message, error = check_message(line)
            if message is not None:
                if "id" in message:
                    if "method" in message:
                        self._unanswered.add(_key(message["id"]))
                    else:
                        self._asked.pop(_key(message["id"]), None)
                return message
            if error is not None:
                await self.send(error)

    async def _after_end(self) -> dict[str, Any] | None:
        """End of input is reported (None) only once every request read so far has been answered.

        Until then the connection stays up so the running prompts still stream their updates; a
        request we put to the editor gets an error in its name, since no answer can come any more.
        """
        while True:
            if self._asked:
                key, request_id = next(iter(self._asked.items()))
                del self._asked[key]
                return error_response(INTERNAL_ERROR, "the editor closed its input", request_id)
            if not self._unanswered:
                return None
            self._sent.clear()
            await self._sent.wait()

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


def _key(request_id: Any) -> str:
    # Ids are strings or numbers; the JSON text tells 1 from "1" and is always hashable.
    return json.dumps(request_id, sort_keys=True)


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
    if _pollable(sys.stdin.fileno()):
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    else:
        await asyncio.to_thread(_feed_all, loop, reader)
    return reader


def _pollable(fd: int) -> bool:
    # epoll refuses regular files and most character devices (`< /dev/null` fails with EPERM inside a
    # loop callback, after connect_read_pipe has returned, and the reader would never see its end).
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)


def _feed_all(loop: asyncio.AbstractEventLoop, reader: asyncio.StreamReader) -> None:
    data = sys.stdin.buffer.read()
    loop.call_soon_threadsafe(reader.feed_data, data)
    loop.call_soon_threadsafe(reader.feed_eof)
