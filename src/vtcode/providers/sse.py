"""Incremental server-sent-events parser (the WHATWG event-stream rules that providers rely on)."""

from __future__ import annotations

import codecs
import re
from collections.abc import AsyncIterator

import msgspec

_LINE_END = re.compile(r"\r\n|\r|\n")


class SseEvent(msgspec.Struct, frozen=True):
    """One dispatched event: `event` is None when the stream gave no `event:` field."""

    event: str | None
    data: str


class SseParser:
    """Feed bytes in arbitrary splits, get complete events out."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._event: str | None = None
        self._data: list[str] = []

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """Consume bytes; return the events completed by them."""
        self._buffer += self._decoder.decode(chunk)
        return self._drain(final=False)

    def close(self) -> list[SseEvent]:
        """End of stream: flush a last event that lacked its blank line."""
        self._buffer += self._decoder.decode(b"", final=True)
        events = self._drain(final=True)
        if self._data:
            events.append(self._dispatch())
        return events

    def _drain(self, *, final: bool) -> list[SseEvent]:
        events: list[SseEvent] = []
        buffer = self._buffer
        pos = 0
        # Scan with a moving position and cut the buffer once: slicing per line made large reads
        # (64 KiB) quadratic in the number of lines they hold.
        while True:
            match = _LINE_END.search(buffer, pos)
            if match is None:
                break
            # A lone trailing "\r" may be the first half of "\r\n" still in flight.
            if not final and match.group() == "\r" and match.end() == len(buffer):
                break
            line = buffer[pos : match.start()]
            pos = match.end()
            if line == "":
                if self._data:
                    events.append(self._dispatch())
                else:
                    self._event = None
                continue
            self._field(line)
        rest = buffer[pos:]
        if final and rest:
            self._field(rest)
            rest = ""
        self._buffer = rest
        return events

    def _field(self, line: str) -> None:
        if line.startswith(":"):
            return
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)

    def _dispatch(self) -> SseEvent:
        event = SseEvent(self._event, "\n".join(self._data))
        self._event = None
        self._data = []
        return event


async def iter_sse(chunks: AsyncIterator[bytes]) -> AsyncIterator[SseEvent]:
    """Parse an async byte stream into events."""
    parser = SseParser()
    async for chunk in chunks:
        for event in parser.feed(chunk):
            yield event
    for event in parser.close():
        yield event
