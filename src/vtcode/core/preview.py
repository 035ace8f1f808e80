"""Bounded previews of long output: head + tail with an omission marker that says what was cut."""

from __future__ import annotations


class HeadTailBuffer:
    """Accumulates a stream keeping only its first and last `keep` bytes, and exact totals.

    The tail is always kept: the end of a build log is where the errors are.
    """

    def __init__(self, keep: int) -> None:
        self.keep = max(1, keep)
        self.head = bytearray()
        self.tail = bytearray()
        self.total_bytes = 0
        self.total_lines = 0

    def feed(self, block: bytes) -> None:
        """Add the next bytes of the stream."""
        self.total_bytes += len(block)
        self.total_lines += block.count(b"\n")
        room = self.keep - len(self.head)
        if room > 0:
            self.head += block[:room]
            block = block[room:]
        if block:
            self.tail += block
            if len(self.tail) > self.keep:
                del self.tail[: len(self.tail) - self.keep]

    def preview(self, limit: int) -> str:
        """At most about `limit` bytes of text: the start, a marker, the end."""
        if self.total_bytes <= limit and self.total_bytes == len(self.head) + len(self.tail):
            return (bytes(self.head) + bytes(self.tail)).decode("utf-8", "replace")
        half = max(1, limit // 2)
        keep_head = bytes(self.head[:half])
        joined_tail = bytes(self.head[half:]) + bytes(self.tail) if not self.tail else bytes(self.tail)
        keep_tail = joined_tail[-half:]
        # Snap to line boundaries so the marker sits between whole lines.
        cut = keep_head.rfind(b"\n")
        if cut > 0:
            keep_head = keep_head[: cut + 1]
        nl = keep_tail.find(b"\n")
        if 0 <= nl < len(keep_tail) - 1:
            keep_tail = keep_tail[nl + 1 :]
        omitted_bytes = self.total_bytes - len(keep_head) - len(keep_tail)
        omitted_lines = self.total_lines - keep_head.count(b"\n") - keep_tail.count(b"\n")
        marker = f"\n[… {omitted_bytes} bytes, {omitted_lines} lines omitted …]\n"
        return keep_head.decode("utf-8", "replace") + marker + keep_tail.decode("utf-8", "replace")
