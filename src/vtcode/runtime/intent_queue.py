"""User input waiting for its turn or for the running turn's next boundary, durable once stored.

Input that has to wait becomes an intent: a UUID, written to the session envelope (under its lock,
atomically) before it is acknowledged with `intent.queued`. Intents written by other processes
(`vtcode steer`) are picked up by polling the envelope. An intent leaves the envelope only after its
tagged user message was checkpointed (`mark_applied`), so a crash loses none and applies none twice.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable, Iterable, Sequence

import msgspec

from vtcode.core.compaction.envelope import IntentImage, PendingIntent
from vtcode.core.images import human_size
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.events import IntentCancelled, IntentQueued
from vtcode.protocol.messages import ImagePart
from vtcode.protocol.ops import InputMode, UserInput
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.user_shell import user_command
from vtcode.store.intents import IntentStore

log = logging.getLogger(__name__)

# `vtcode steer` promises a running session picks an intent up within 200 ms.
POLL_SECONDS = 0.1


class IntentQueue:
    """The FIFO of pending input of one session."""

    def __init__(
        self,
        emitter: Emitter,
        store: Callable[[], IntentStore | None],
        *,
        new_id: Callable[[], str],
        clock: Callable[[], float],
    ) -> None:
        self._emitter = emitter
        self._store = store
        self._new_id = new_id
        self._clock = clock
        self._items: collections.deque[UserInput] = collections.deque()
        # Every intent id this process has queued or delivered: a polled envelope adds only new ones.
        self._seen: set[str] = set()
        # Ids known to be in the envelope: only these can have been cancelled by another process.
        self._durable: set[str] = set()
        self._signature: tuple[int, int] | None = None
        self.changed = asyncio.Event()

    def __len__(self) -> int:
        return len(self._items)

    @property
    def items(self) -> tuple[UserInput, ...]:
        """What waits, in delivery order."""
        return tuple(self._items)

    async def add(
        self,
        text: str,
        mode: InputMode,
        intent_id: str | None,
        *,
        waits: bool,
        images: tuple[ImagePart, ...] = (),
    ) -> None:
        """Queue input; when it has to wait it becomes a durable intent first (`QueueFullError` at 16).

        Its images are stored next to the envelope, before it (`store/intent_images.py`).
        """
        if intent_id is not None and intent_id in self._seen:
            return
        if waits:
            intent_id = intent_id or self._new_id()
            store = self._store()
            if store is not None:
                intent = PendingIntent(id=intent_id, text=text, mode=mode, created_at=self._clock())
                # Seen before the write: the poller may read the envelope while it is being written
                # and must not take this intent for one from another process.
                self._seen.add(intent_id)
                try:
                    await asyncio.to_thread(store.enqueue, intent, images)
                except BaseException:
                    self._seen.discard(intent_id)
                    raise
                self._durable.add(intent_id)
        if intent_id is not None:
            self._seen.add(intent_id)
        self._items.append(UserInput(text=text, mode=mode, intent_id=intent_id, images=images))
        if waits and intent_id is not None:
            self._emitter.emit(IntentQueued(intent_id=intent_id, text=text, mode=mode))
        self.changed.set()

    def restore(self, intents: Iterable[PendingIntent]) -> None:
        """Intents found pending on resume go first, in their order."""
        for intent in intents:
            self._seen.add(intent.id)
            self._durable.add(intent.id)
            self._items.append(self._input(intent))
            self._emitter.emit(
                IntentQueued(intent_id=intent.id, text=intent.text, mode=intent.mode, recovered=True)
            )
        self.changed.set()

    def pop(self) -> UserInput | None:
        """The next input to start a turn with."""
        return self._items.popleft() if self._items else None

    def take_steering(self) -> list[UserInput]:
        """The `steer` input waiting for the running turn's boundary, removed from the queue.

        A `!cmd` is not words for the model: it stays queued and runs as a turn of its own.
        """
        steer = [p for p in self._items if p.mode == "steer" and user_command(p.text) is None]
        for item in steer:
            self._items.remove(item)
        return steer

    def requeue_steering(self) -> None:
        """Steering that found no boundary before its turn ended waits for a turn of its own, in order."""
        self._items = collections.deque(msgspec.structs.replace(p, mode="queue") for p in self._items)

    async def cancel(self, intent_id: str) -> bool:
        """Remove a pending intent (also from the envelope); False when it is not pending any more."""
        item = next((p for p in self._items if p.intent_id == intent_id), None)
        if item is None:
            return False
        store = self._store()
        if store is not None:
            await asyncio.to_thread(store.cancel, intent_id)
        if item in self._items:
            self._items.remove(item)
            self._emitter.emit(IntentCancelled(intent_id=intent_id))
        return True

    def applied(self, intent_ids: Sequence[str]) -> None:
        """The tagged messages of `intent_ids` were checkpointed: take them out of the envelope."""
        store = self._store()
        if store is None:
            return
        try:
            store.mark_applied(list(intent_ids))
        except VtcodeError as exc:
            # The history already proves them applied; recovery on resume drops them from the envelope.
            log.warning("envelope not updated after applying intents: %s", exc.user_text())

    def refresh(self) -> None:
        """Take intents other processes added, drop those they cancelled (a cheap stat when unchanged)."""
        store = self._store()
        if store is None:
            return
        try:
            signature = store.signature()
            if signature is None or signature == self._signature:
                return
            self._signature = signature
            envelope = store.read()
        except VtcodeError as exc:
            self._emitter.warn(f"steering: {exc.user_text()}")
            self._signature = None
            return
        waiting = {p.id for p in envelope.pending_intents}
        gone = [p for p in self._items if p.intent_id in self._durable and p.intent_id not in waiting]
        for item in gone:
            if item.intent_id in envelope.applied_intent_ids:
                continue
            self._items.remove(item)
            self._emitter.emit(IntentCancelled(intent_id=item.intent_id or ""))
        for intent in envelope.pending_intents:
            if intent.id in self._seen:
                continue
            self._seen.add(intent.id)
            self._durable.add(intent.id)
            self._items.append(self._input(intent))
            self._emitter.emit(IntentQueued(intent_id=intent.id, text=intent.text, mode=intent.mode))
            self.changed.set()

    def _input(self, intent: PendingIntent) -> UserInput:
        """A stored intent as input, its images read back; an image whose file is gone becomes a note
        in the text and a warning, never a silent loss."""
        text = intent.text
        images: tuple[ImagePart, ...] = ()
        store = self._store()
        if intent.images:
            missing = intent.images
            if store is not None:
                images, missing = store.images(intent)
            if missing:
                notes = [_missing_note(ref) for ref in missing]
                text = "\n".join(part for part in (text, *notes) if part)
                self._emitter.warn(
                    f"intent {intent.id}: {len(missing)} image(s) could not be read back "
                    "from the session directory; the model is told they were lost"
                )
        return UserInput(text, intent.mode, intent.id, images)

    async def watch(self) -> None:
        """Poll the envelope for intents from other processes until cancelled."""
        while True:
            self.refresh()
            await asyncio.sleep(POLL_SECONDS)


def _missing_note(ref: IntentImage) -> str:
    return f"[image: {ref.mime_type}, {human_size(ref.size)} — lost before it was delivered]"
