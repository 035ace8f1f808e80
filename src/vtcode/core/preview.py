"""Bounded previews of long output: head + tail with an omission marker that says what was cut.

The tail is always kept and is built from the real end of the stream, never from an already cut head
(SPEC section 8.4; the reference's head-only cut lost the end of build logs). The budget is split a
third to the head and two thirds to the tail, because the end of a log is where the errors are.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from vtcode.core.exec.text import (
    ceil_boundary,
    count_newlines,
    decode_clean,
    floor_boundary,
    incomplete_utf8_suffix,
)

# Room for the omission marker inside the budget (it is about 50 bytes).
_MARKER_RESERVE = 80


@dataclass(frozen=True)
class Preview:
    """Text for the model and what was left out of it."""

    text: str
    truncated: bool = False
    omitted_bytes: int = 0
    omitted_lines: int = 0


class HeadTailBuffer:
    """Accumulates a stream keeping only its first and last `keep` bytes, and exact totals.

    The tail is kept as the list of the most recent chunks (dropped whole from the left), so feeding
    a large stream copies nothing beyond the head: this buffer sits on the spool's hot path.
    """

    def __init__(self, keep: int) -> None:
        self.keep = max(1, keep)
        self.head = bytearray()
        self._chunks: deque[bytes] = deque()
        self._chunk_bytes = 0
        self.total_bytes = 0
        self.total_lines = 0

    def feed(self, block: bytes | bytearray) -> None:
        """Add the next bytes of the stream."""
        size = len(block)
        if not size:
            return
        self.total_bytes += size
        self.total_lines += count_newlines(bytes(block))
        room = self.keep - len(self.head)
        if room > 0:
            if size <= room:
                self.head += block
                return
            self.head += block[:room]
            block = block[room:]
        chunk = bytes(block)
        self._chunks.append(chunk)
        self._chunk_bytes += len(chunk)
        while self._chunk_bytes - len(self._chunks[0]) >= self.keep:
            self._chunk_bytes -= len(self._chunks.popleft())

    @property
    def tail(self) -> bytes:
        """The last bytes of the stream after the head (at most `keep`)."""
        joined = b"".join(self._chunks)
        return joined[-self.keep :] if len(joined) > self.keep else joined

    @property
    def dropped(self) -> bool:
        """Whether bytes between the head and the tail were discarded."""
        return self.total_bytes > len(self.head) + min(self._chunk_bytes, self.keep)

    def pop_end(self, count: int) -> bytes:
        """Remove and return the last `count` bytes (for a character that is not complete yet)."""
        tail = bytearray(self.tail)
        count = min(count, len(self.head) + len(tail))
        if count <= 0:
            return b""
        from_tail = min(count, len(tail))
        taken = tail[len(tail) - from_tail :]
        del tail[len(tail) - from_tail :]
        rest = count - from_tail
        if rest:
            taken = self.head[len(self.head) - rest :] + taken
            del self.head[len(self.head) - rest :]
        self._chunks = deque([bytes(tail)]) if tail else deque()
        self._chunk_bytes = len(tail)
        self.total_bytes -= count
        self.total_lines -= taken.count(b"\n")
        return bytes(taken)

    def render(self, limit: int) -> Preview:
        """At most about `limit` bytes of cleaned text: the start, a marker, the end."""
        return render_preview(bytes(self.head), self.tail, self.total_bytes, self.total_lines, limit=limit)

    def preview(self, limit: int) -> str:
        """The text of `render(limit)`."""
        return self.render(limit).text


def render_preview(head: bytes, tail: bytes, total_bytes: int, total_lines: int, *, limit: int) -> Preview:
    """Head + marker + tail of a stream of `total_bytes` of which `head` and `tail` were kept."""
    limit = max(1, limit)
    contiguous = total_bytes == len(head) + len(tail)
    if contiguous:
        whole = head + tail
        text = decode_clean(whole)
        if len(text.encode("utf-8", "surrogatepass")) <= limit:
            return Preview(text)
        head = tail = whole
    reserve = min(_MARKER_RESERVE, limit // 2)
    content = limit - reserve
    head_budget = content // 3
    tail_budget = content - head_budget
    kept_head = _cut_head(head, head_budget)
    tail_start = max(len(tail) - tail_budget, len(kept_head) if contiguous else 0)
    # Only a tail that starts right after a newline of the stream starts on a whole line.
    whole_line = tail_start > 0 and tail[tail_start - 1 : tail_start] == b"\n"
    kept_tail = _cut_tail(tail, tail_start, whole_line=whole_line)
    omitted_bytes = total_bytes - len(kept_head) - len(kept_tail)
    omitted_lines = total_lines - kept_head.count(b"\n") - kept_tail.count(b"\n")
    head_text = decode_clean(kept_head)
    lead = "" if not head_text or head_text.endswith("\n") else "\n"
    marker = f"{lead}[… {omitted_bytes} bytes, {omitted_lines} lines omitted …]\n"
    return Preview(
        text=head_text + marker + decode_clean(kept_tail),
        truncated=True,
        omitted_bytes=omitted_bytes,
        omitted_lines=omitted_lines,
    )


def _cut_head(data: bytes, budget: int) -> bytes:
    end = floor_boundary(data, budget)
    if end >= len(data):
        # The kept head itself may stop inside a character (the buffer keeps raw bytes).
        end = len(data) - incomplete_utf8_suffix(data)
    kept = data[:end]
    # Snap to a line end so the marker sits between whole lines, unless that throws most of it away.
    newline = kept.rfind(b"\n")
    if newline >= len(kept) // 2:
        kept = kept[: newline + 1]
    return kept


def _cut_tail(data: bytes, start: int, *, whole_line: bool) -> bytes:
    start = ceil_boundary(data, start)
    kept = data[start:]
    if whole_line:
        return kept
    newline = kept.find(b"\n")
    if 0 <= newline < len(kept) // 2 and newline < len(kept) - 1:
        kept = kept[newline + 1 :]
    return kept
