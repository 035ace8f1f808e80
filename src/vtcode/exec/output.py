"""Where a session's output goes: the spool (all of it), the next call's preview, live progress.

"Output drained" is a state of its own: the stream reached end of file, which can be long after the
shell exited when a background process inherited stdout (SPEC section 8.5).
"""

from __future__ import annotations

from vtcode.core.exec.text import MAX_HELD_ESCAPE, held_back
from vtcode.core.preview import HeadTailBuffer, Preview
from vtcode.exec.progress import ProgressReporter
from vtcode.exec.spool import SpoolWriter

# Head and tail kept between two calls: enough for the largest preview (50,000 tokens x 4 bytes).
PENDING_KEEP_BYTES = 200_000


class SessionOutput:
    """Totals, the spool, and the output not yet shown to the model."""

    def __init__(self, spool: SpoolWriter) -> None:
        self.spool = spool
        self.total_bytes = 0
        self.drained = False
        # Some preview of this session was cut (sticky, reported as `output_truncated`).
        self.ever_truncated = False
        self._pending = HeadTailBuffer(PENDING_KEEP_BYTES)
        self.progress: ProgressReporter | None = None

    def feed(self, data: bytes) -> None:
        """The next bytes read from the command."""
        self.total_bytes += len(data)
        self.spool.write(data)
        self._pending.feed(data)
        if self.progress is not None:
            self.progress.feed(data, self.total_bytes)

    def end(self) -> None:
        """End of file: everything the command wrote has been read and spooled."""
        self.drained = True
        self.spool.finish()

    def take(self, limit: int) -> Preview:
        """A preview of the output since the previous call, within `limit` bytes; the rest stays queued.

        A character or escape sequence still being written is kept for the next call, so a read
        boundary never splits it.
        """
        pending = self._pending
        hold = held_back(_last_bytes(pending, MAX_HELD_ESCAPE + 4), final=self.drained)
        carry = pending.pop_end(hold)
        preview = pending.render(limit)
        self._pending = HeadTailBuffer(PENDING_KEEP_BYTES)
        self._pending.feed(carry)
        if preview.truncated:
            self.ever_truncated = True
        return preview


def _last_bytes(buffer: HeadTailBuffer, count: int) -> bytes:
    tail = buffer.tail
    if len(tail) >= count:
        return tail[-count:]
    return bytes(buffer.head[-(count - len(tail)) :]) + tail
