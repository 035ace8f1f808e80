"""The pending-input queue of a session: durable before acknowledged, never taken twice."""

from __future__ import annotations

import asyncio
import fcntl
import os
from pathlib import Path

from vtcode.core.compaction.envelope import Envelope, PendingIntent
from vtcode.protocol.events import Event, IntentCancelled, IntentQueued
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.intent_queue import IntentQueue
from vtcode.store.envelope import write_envelope
from vtcode.store.intents import LOCK_FILE, IntentStore


def _queue(directory: Path, seen: list[Event]) -> IntentQueue:
    store = IntentStore(directory)
    return IntentQueue(Emitter([seen.append]), lambda: store, new_id=lambda: "id-1", clock=lambda: 1.0)


async def test_an_intent_being_written_is_not_taken_again_from_the_envelope(tmp_path: Path) -> None:
    seen: list[Event] = []
    queue = _queue(tmp_path, seen)
    # Another writer holds the lock: our durable write waits in its thread...
    lock = os.open(tmp_path / LOCK_FILE, os.O_RDWR | os.O_CREAT)
    fcntl.flock(lock, fcntl.LOCK_EX)
    adding = asyncio.create_task(queue.add("follow-up", "queue", None, waits=True))
    await asyncio.sleep(0.1)
    # ... while the envelope already shows the intent (as right after the write, before `add` resumes)
    # and the poller reads it.
    write_envelope(tmp_path, Envelope(pending_intents=(PendingIntent(id="id-1", text="follow-up"),)))
    queue.refresh()
    fcntl.flock(lock, fcntl.LOCK_UN)
    os.close(lock)
    await adding
    assert [p.intent_id for p in queue.items] == ["id-1"]
    assert [e.intent_id for e in seen if isinstance(e, IntentQueued)] == ["id-1"]


async def test_intents_from_other_processes_are_taken_and_their_cancellations_followed(
    tmp_path: Path,
) -> None:
    seen: list[Event] = []
    queue = _queue(tmp_path, seen)
    store = IntentStore(tmp_path)
    store.enqueue(PendingIntent(id="a", text="from steer", mode="steer"))
    queue.refresh()
    assert [(p.intent_id, p.mode) for p in queue.items] == [("a", "steer")]
    store.cancel("a")
    queue.refresh()
    assert queue.items == ()
    assert [type(e) for e in seen] == [IntentQueued, IntentCancelled]


async def test_input_that_does_not_wait_is_not_an_intent(tmp_path: Path) -> None:
    seen: list[Event] = []
    queue = _queue(tmp_path, seen)
    await queue.add("right away", "queue", None, waits=False)
    assert [(p.text, p.intent_id) for p in queue.items] == [("right away", None)]
    assert seen == []
    assert not (tmp_path / "envelope.json").exists()


async def test_a_shell_command_sent_as_steering_waits_for_a_turn_of_its_own(tmp_path: Path) -> None:
    queue = _queue(tmp_path, [])
    await queue.add("!echo hi", "steer", None, waits=False)
    await queue.add("look at the tests", "steer", None, waits=False)
    assert [p.text for p in queue.take_steering()] == ["look at the tests"]
    queue.requeue_steering()
    assert [(p.text, p.mode) for p in queue.items] == [("!echo hi", "queue")]
