"""Incremental server-sent-events parser (the WHATWG event-stream rules that providers rely on)."""

from __future__ import annotations

import codecs
from collections.abc import AsyncIterator
from dataclasses import dataclass


@dataclass(frozen=True)
class SseEvent:
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
        while True:
            cut = _line_end(self._buffer)
            if cut is None:
                if final and self._buffer:
                    line, self._buffer = self._buffer, ""
                    self._field(line)
                return events
            end, width = cut
            # A lone trailing "\r" may be the first half of "\r\n" still in flight.
            if not final and width == 1 and self._buffer[end] == "\r" and end + 1 == len(self._buffer):
                return events
            line = self._buffer[:end]
            self._buffer = self._buffer[end + width :]
            if line == "":
                if self._data:
                    events.append(self._dispatch())
                else:
                    self._event = None
                continue
            self._field(line)

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


def _line_end(text: str) -> tuple[int, int] | None:
    """Index and width of the first line terminator (CRLF, LF or CR)."""
    lf = text.find("\n")
    cr = text.find("\r")
    if cr == -1 and lf == -1:
        return None
    if cr == -1 or (lf != -1 and lf < cr):
        return lf, 1
    if cr + 1 < len(text) and text[cr + 1] == "\n":
        return cr, 2
    return cr, 1


async def iter_sse(chunks: AsyncIterator[bytes]) -> AsyncIterator[SseEvent]:
    """Parse an async byte stream into events."""
    parser = SseParser()
    async for chunk in chunks:
        for event in parser.feed(chunk):
            yield event
    for event in parser.close():
        yield event
