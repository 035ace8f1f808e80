"""The steering intents of a stored session, in its `envelope.json`, under one lock for every writer.

The running session, compaction and any number of `vtcode steer` processes change the envelope; each
change is read-modify-write under an exclusive `flock` on `envelope.lock`, and the write is atomic
(temp file, fsync, rename, fsync of the directory), so no accepted intent is lost to a race or a crash.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec

from vtcode.core.compaction.envelope import Envelope, IntentImage, PendingIntent
from vtcode.core.steering import cancel, enqueue, mark_applied
from vtcode.protocol.messages import ImagePart
from vtcode.store.envelope import ENVELOPE_FILE, read_envelope, write_envelope
from vtcode.store.errors import store_error
from vtcode.store.intent_images import load_images, prune_images, save_images
from vtcode.store.writer_lock import writer_lock

LOCK_FILE = "envelope.lock"


class IntentStore:
    """Pending and applied intents of the session stored in `directory`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.session_id = directory.name

    def locked(self) -> contextlib.AbstractContextManager[None]:
        """Hold the envelope's writer lock (blocking: writers hold it for one small write)."""
        return writer_lock(self.directory / LOCK_FILE)

    def read(self) -> Envelope:
        """The envelope as stored (an empty one when there is none yet)."""
        return read_envelope(self.directory) or Envelope(session_id=self.session_id)

    def update(self, change: Callable[[Envelope], Envelope]) -> Envelope:
        """Apply `change` to the stored envelope under the lock and write the result durably."""
        with self.locked():
            before = self.read()
            after = change(before)
            if after is not before:
                write_envelope(self.directory, after)
                # Images of intents that left the queue (applied: the history holds them; cancelled).
                prune_images(self.directory, after.pending_intents)
            return after

    def enqueue(self, intent: PendingIntent, images: Sequence[ImagePart] = ()) -> Envelope:
        """Accept `intent` durably, its `images` written first; raises `QueueFullError` when 16 wait."""
        if not images:
            return self.update(lambda envelope: enqueue(envelope, intent))

        def change(envelope: Envelope) -> Envelope:
            # Under the lock, so no other writer prunes the files before the envelope names them.
            refs = save_images(self.directory, images)
            return enqueue(envelope, msgspec.structs.replace(intent, images=refs))

        try:
            return self.update(change)
        except BaseException:
            with self.locked():
                prune_images(self.directory, self.read().pending_intents)
            raise

    def images(self, intent: PendingIntent) -> tuple[tuple[ImagePart, ...], tuple[IntentImage, ...]]:
        """The images of a pending intent, and the references whose file is gone or damaged."""
        return load_images(self.directory, intent.images)

    def cancel(self, intent_id: str) -> PendingIntent | None:
        """Remove a pending intent; the removed intent, or None when it was not pending."""
        removed: list[PendingIntent] = []

        def change(envelope: Envelope) -> Envelope:
            after, found = cancel(envelope, intent_id)
            if found is not None:
                removed.append(found)
            return after

        self.update(change)
        return removed[0] if removed else None

    def mark_applied(self, intent_ids: list[str]) -> Envelope:
        """Move `intent_ids` from pending to the applied window (after their checkpoint)."""
        return self.update(lambda envelope: mark_applied(envelope, intent_ids))

    def signature(self) -> tuple[int, int] | None:
        """What changes whenever the envelope is rewritten (inode and mtime), None when absent."""
        try:
            stat = os.stat(self.directory / ENVELOPE_FILE)
        except FileNotFoundError:
            return None
        except OSError as err:
            raise store_error(err, "read", self.directory / ENVELOPE_FILE) from err
        # Every write is a rename of a new file: the inode alone already tells a rewrite apart.
        return (stat.st_ino, stat.st_mtime_ns)
