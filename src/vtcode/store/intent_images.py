"""The images of pending intents, one file each next to the envelope, named by the hash of their text.

The envelope is rewritten by every writer (each steer, cancel and applied mark) and polled by the running
session, so images (often megabytes of base64) stay out of it: an intent refers to its images by hash
(`IntentImage`). A file is written durably before the envelope that refers to it, and removed once no
pending intent refers to it any more (the applied user message in the history then holds the image).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from vtcode.core.compaction.envelope import IntentImage, PendingIntent
from vtcode.core.images import decoded_size
from vtcode.protocol.messages import ImagePart
from vtcode.store.atomic import atomic_write
from vtcode.store.errors import store_error

IMAGES_DIR = "intent-images"


def save_images(directory: Path, images: Sequence[ImagePart]) -> tuple[IntentImage, ...]:
    """Write each image durably under `directory`; the references the intent keeps (raises `StoreError`)."""
    if not images:
        return ()
    folder = directory / IMAGES_DIR
    try:
        folder.mkdir(exist_ok=True)
    except OSError as err:
        raise store_error(err, "create", folder) from err
    refs: list[IntentImage] = []
    for image in images:
        data = image.data.encode()
        digest = hashlib.sha256(data).hexdigest()
        path = folder / digest
        if not path.exists():
            atomic_write(path, data)
        refs.append(IntentImage(mime_type=image.mime_type, sha256=digest, size=decoded_size(image)))
    return tuple(refs)


def load_images(
    directory: Path, refs: Sequence[IntentImage]
) -> tuple[tuple[ImagePart, ...], tuple[IntentImage, ...]]:
    """The images `refs` name, in order, and the references whose file is gone or damaged."""
    found: list[ImagePart] = []
    missing: list[IntentImage] = []
    for ref in refs:
        try:
            data = (directory / IMAGES_DIR / ref.sha256).read_bytes()
        except OSError:
            missing.append(ref)
            continue
        if hashlib.sha256(data).hexdigest() != ref.sha256:
            missing.append(ref)
            continue
        found.append(ImagePart(mime_type=ref.mime_type, data=data.decode("ascii", errors="replace")))
    return tuple(found), tuple(missing)


def prune_images(directory: Path, pending: Iterable[PendingIntent]) -> None:
    """Remove the image files no pending intent refers to (best effort: a leftover file only costs space)."""
    folder = directory / IMAGES_DIR
    if not folder.is_dir():
        return
    keep = {ref.sha256 for intent in pending for ref in intent.images}
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            if path.name not in keep and not path.name.startswith("."):
                with contextlib.suppress(OSError):
                    path.unlink()
