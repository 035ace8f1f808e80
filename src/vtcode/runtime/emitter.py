"""The event stream of one session: stamps, item ids, and delivery to every subscriber in order."""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec

from vtcode.protocol.events import DeltaKind, Event, ItemDelta, Notice

EventSink = Callable[[Event], None]
Clock = Callable[[], float]


class Emitter:
    """Hands events to the subscribers in order, stamped with the current turn and the time.

    Item ids are `item_<turn>_<n>`: turn numbers continue across resumes (they are stored with the
    history), so ids stay unique in a session's `events.jsonl` however often it is resumed.
    While `hold()` is in force (a session opening in a worker thread) events are kept and delivered by
    `release()` on the event loop's thread.
    """

    def __init__(self, sinks: list[EventSink] | None = None, *, clock: Clock = time.time) -> None:
        self._sinks = list(sinks or [])
        self._clock = clock
        self._turn = 0
        self._next_item = 0
        self.turn_id: str | None = None
        self._held: list[Event] | None = None

    def subscribe(self, sink: EventSink) -> None:
        """Add a subscriber."""
        self._sinks.append(sink)

    def hold(self) -> None:
        """Keep events instead of delivering them, until `release`."""
        self._held = []

    def release(self) -> None:
        """Deliver the events kept since `hold`, then deliver as they come."""
        held, self._held = self._held or [], None
        for event in held:
            self._deliver(event)

    def begin_turn(self, turn: int) -> str:
        """Events from now on belong to turn `turn`; returns its id."""
        self._turn = turn
        self._next_item = 0
        self.turn_id = f"turn_{turn}"
        return self.turn_id

    def end_turn(self) -> None:
        """Events from now on belong to no turn."""
        self.turn_id = None

    def emit(self, event: Event) -> None:
        """Stamp one event and deliver it to every subscriber."""
        stamped = msgspec.structs.replace(event, turn_id=self.turn_id, ts=self._clock())
        if self._held is not None:
            self._held.append(stamped)
        else:
            self._deliver(stamped)

    def delta(self, item_id: str, kind: DeltaKind, text: str) -> None:
        """A streamed text or reasoning fragment of an item."""
        self.emit(ItemDelta(item_id=item_id, kind=kind, delta=text))

    def warn(self, message: str) -> None:
        """A warning for the user (a `notice` event): something went wrong or was left out."""
        self.emit(Notice(level="warning", message=message))

    def inform(self, message: str) -> None:
        """Information for the user (a `notice` event at level info)."""
        self.emit(Notice(level="info", message=message))

    def new_item_id(self) -> str:
        """The next item id of this session."""
        item_id = f"item_{self._turn}_{self._next_item}"
        self._next_item += 1
        return item_id

    def _deliver(self, event: Event) -> None:
        for sink in self._sinks:
            sink(event)
