"""The images of pending intents: files next to the envelope, named in it, removed when the intent goes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.runtime.test_user_message_images import PIXEL

from vtcode.core.compaction.envelope import PendingIntent
from vtcode.protocol.errors import QueueFullError
from vtcode.protocol.messages import ImagePart
from vtcode.store.intent_images import IMAGES_DIR
from vtcode.store.intents import IntentStore

OTHER = ImagePart(mime_type="image/jpeg", data="/9j/4AAQSkZJRg==")


def _files(directory: Path) -> list[str]:
    folder = directory / IMAGES_DIR
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_images_are_named_in_the_envelope_and_read_back_exactly(tmp_path: Path) -> None:
    store = IntentStore(tmp_path)
    store.enqueue(PendingIntent(id="a", text="two pictures"), [PIXEL, OTHER])
    (intent,) = store.read().pending_intents
    assert [ref.mime_type for ref in intent.images] == ["image/png", "image/jpeg"]
    assert PIXEL.data not in (tmp_path / "envelope.json").read_text()
    assert len(_files(tmp_path)) == 2
    assert store.images(intent) == ((PIXEL, OTHER), ())


def test_a_damaged_image_file_is_reported_missing_not_sent(tmp_path: Path) -> None:
    store = IntentStore(tmp_path)
    store.enqueue(PendingIntent(id="a", text="look"), [PIXEL])
    (intent,) = store.read().pending_intents
    (tmp_path / IMAGES_DIR / intent.images[0].sha256).write_text("garbage")
    assert store.images(intent) == ((), intent.images)


def test_applied_and_cancelled_intents_leave_no_image_files(tmp_path: Path) -> None:
    store = IntentStore(tmp_path)
    store.enqueue(PendingIntent(id="a", text="first"), [PIXEL])
    store.enqueue(PendingIntent(id="b", text="second"), [OTHER])
    store.enqueue(PendingIntent(id="c", text="same image as the first"), [PIXEL])
    assert len(_files(tmp_path)) == 2
    store.mark_applied(["a"])
    # "c" still needs the image "a" had.
    assert len(_files(tmp_path)) == 2
    store.cancel("b")
    store.mark_applied(["c"])
    assert _files(tmp_path) == []


def test_a_full_queue_refuses_an_image_prompt_and_keeps_no_file_of_it(tmp_path: Path) -> None:
    store = IntentStore(tmp_path)
    for n in range(16):
        store.enqueue(PendingIntent(id=f"i{n}", text=f"t{n}"))
    before = (tmp_path / "envelope.json").read_text()
    with pytest.raises(QueueFullError):
        store.enqueue(PendingIntent(id="late", text="with a picture"), [PIXEL])
    assert _files(tmp_path) == []
    assert json.loads((tmp_path / "envelope.json").read_text()) == json.loads(before)
