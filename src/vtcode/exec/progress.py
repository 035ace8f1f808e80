"""Live output of a command session while a tool call waits on it.

The runtime puts a sink in each command call's tool context (so parallel calls each have their own); the
session reports new output to it at most every 100 ms, and the runtime turns each
report into an `item.updated` event for the call's `command_execution` item. A command that ends
within 100 ms of its first output produces no report: its result follows at once anyway.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import msgspec

from vtcode.core.exec.text import decode_clean, held_back

log = logging.getLogger(__name__)

# Reports are coalesced to at most one per interval; each carries at most the last KEEP bytes.
PROGRESS_INTERVAL_SECONDS = 0.1
PROGRESS_KEEP_BYTES = 16_384


class ExecProgress(msgspec.Struct, frozen=True):
    """New output of a session since its previous report (ANSI stripped, bounded)."""

    session_id: str
    command: str
    text: str
    # Bytes of this stretch left out because it was longer than the report bound.
    skipped_bytes: int
    total_output_bytes: int


ProgressSink = Callable[[ExecProgress], None]


class ProgressReporter:
    """Coalesces a session's output into bounded reports for one sink."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, sink: ProgressSink, session_id: str, command: str
    ) -> None:
        self._loop = loop
        self._sink = sink
        self._session_id = session_id
        self._command = command
        self._buffer = bytearray()
        self._skipped = 0
        self._total = 0
        self._timer: asyncio.TimerHandle | None = None

    def feed(self, data: bytes, total_bytes: int) -> None:
        """Take the next output; a report follows within the interval."""
        if len(data) >= PROGRESS_KEEP_BYTES:
            self._skipped += len(self._buffer) + len(data) - PROGRESS_KEEP_BYTES
            self._buffer = bytearray(data[-PROGRESS_KEEP_BYTES:])
        else:
            self._buffer += data
            excess = len(self._buffer) - PROGRESS_KEEP_BYTES
            if excess > 0:
                del self._buffer[:excess]
                self._skipped += excess
        self._total = total_bytes
        if self._timer is None:
            self._timer = self._loop.call_later(PROGRESS_INTERVAL_SECONDS, self.flush)

    def flush(self) -> None:
        """Report what arrived since the last report (an unfinished character waits for the next)."""
        self._timer = None
        hold = held_back(self._buffer, final=False)
        ready = bytes(self._buffer[: len(self._buffer) - hold])
        del self._buffer[: len(ready)]
        if not ready:
            return
        report = ExecProgress(
            session_id=self._session_id,
            command=self._command,
            text=decode_clean(ready),
            skipped_bytes=self._skipped,
            total_output_bytes=self._total,
        )
        self._skipped = 0
        try:
            self._sink(report)
        except Exception:  # a broken renderer must not break the command session
            log.debug("progress sink failed", exc_info=True)

    def close(self) -> None:
        """Stop reporting; what is left goes out with the call's own result, not as a late update."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
