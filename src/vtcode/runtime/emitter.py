"""The event stream of one session: item ids and delivery to every subscriber."""

from __future__ import annotations

from collections.abc import Callable

from vtcode.protocol.events import Event

EventSink = Callable[[Event], None]
DeltaSink = Callable[[str, str, str], None]


class Emitter:
    """Hands events to the subscribers in order and numbers items."""

    def __init__(self, sinks: list[EventSink] | None = None, deltas: DeltaSink | None = None) -> None:
        self._sinks = list(sinks or [])
        self._deltas = deltas
        self._next_item = 0

    def subscribe(self, sink: EventSink) -> None:
        """Add a subscriber."""
        self._sinks.append(sink)

    def emit(self, event: Event) -> None:
        """Deliver one event to every subscriber."""
        for sink in self._sinks:
            sink(event)

    def delta(self, item_id: str, kind: str, text: str) -> None:
        """Stream a text or reasoning fragment to live renderers (not part of the durable stream)."""
        if self._deltas is not None:
            self._deltas(item_id, kind, text)

    def new_item_id(self) -> str:
        """The next item id of this session."""
        item_id = f"item_{self._next_item}"
        self._next_item += 1
        return item_id
