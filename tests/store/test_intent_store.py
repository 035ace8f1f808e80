"""The envelope's intents on disk: one lock for every writer, atomic writes, clear errors on bad files."""

from __future__ import annotations

import json
import multiprocessing
import uuid
from pathlib import Path

import pytest

from vtcode.core.compaction.envelope import PendingIntent
from vtcode.protocol.errors import QueueFullError, StoreError
from vtcode.store.intents import IntentStore


def _enqueue_many(directory: str, prefix: str, count: int) -> None:
    store = IntentStore(Path(directory))
    for n in range(count):
        store.enqueue(PendingIntent(id=str(uuid.uuid4()), text=f"{prefix}-{n}"))


def test_eight_processes_enqueueing_at_once_lose_nothing(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_enqueue_many, args=(str(tmp_path), f"p{w}", 2)) for w in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    texts = [p.text for p in IntentStore(tmp_path).read().pending_intents]
    assert sorted(texts) == sorted(f"p{w}-{n}" for w in range(8) for n in range(2))
    # Each process's own intents keep their order.
    for w in range(8):
        mine = [t for t in texts if t.startswith(f"p{w}-")]
        assert mine == [f"p{w}-0", f"p{w}-1"]


def test_a_full_queue_refuses_and_keeps_the_file_as_it_was(tmp_path: Path) -> None:
    store = IntentStore(tmp_path)
    _enqueue_many(str(tmp_path), "x", 16)
    before = (tmp_path / "envelope.json").read_bytes()
    with pytest.raises(QueueFullError):
        store.enqueue(PendingIntent(id="late", text="late"))
    assert (tmp_path / "envelope.json").read_bytes() == before


def test_a_damaged_envelope_is_a_clear_error_and_is_left_for_inspection(tmp_path: Path) -> None:
    (tmp_path / "envelope.json").write_text('{"pending_intents": [{"id": "a", "te')
    with pytest.raises(StoreError) as failed:
        IntentStore(tmp_path).enqueue(PendingIntent(id="b", text="b"))
    assert "envelope.json" in failed.value.message
    assert failed.value.hint
    assert (tmp_path / "envelope.json").read_text().endswith('"te')


def test_an_envelope_from_a_newer_vtcode_is_refused_not_rewritten(tmp_path: Path) -> None:
    (tmp_path / "envelope.json").write_text(json.dumps({"schema_version": 99}))
    with pytest.raises(StoreError, match="schema_version 99"):
        IntentStore(tmp_path).cancel("x")
    assert json.loads((tmp_path / "envelope.json").read_text()) == {"schema_version": 99}


def test_the_signature_changes_with_every_write(tmp_path: Path) -> None:
    store = IntentStore(tmp_path)
    assert store.signature() is None
    store.enqueue(PendingIntent(id="a", text="a"))
    first = store.signature()
    store.enqueue(PendingIntent(id="b", text="b"))
    assert first is not None
    assert store.signature() != first
