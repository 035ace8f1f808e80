"""A subagent's transcript: stored like a session's history, but its creation never delays the child.

A session's first checkpoint creates its folder (a directory, `meta.json`, `history.jsonl`, each
fsynced); for a parent that is part of starting, for a child it would be most of it. Here the first
checkpoint is written in a worker thread while the child's first request goes out; whatever the child
checkpoints or records meanwhile waits in memory and is written, in order, right after. Later checkpoints
are written like any session's. A crash in that window loses only the child's first messages: the
parent's own history still records the `task` call (repaired as not finished on resume).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from vtcode.protocol.events import Event
from vtcode.protocol.messages import Message
from vtcode.runtime.stored_history import StoredHistory


class ChildHistory(StoredHistory):
    """The `History` port of a child session; `handle` is None until its folder exists."""

    def __init__(self, inner: StoredHistory) -> None:
        super().__init__(
            inner.store,
            session_id=inner.session_id,
            workspace=inner.workspace,
            model=inner.model,
            provider=inner.provider,
            ephemeral=inner.ephemeral,
            # A continued child appends to the transcript it has.
            handle=inner.handle,
        )
        self._inner = inner
        self._waiting: list[tuple[Sequence[Message], int] | Event] = []
        self._creating: asyncio.Task[None] | None = None
        self._closed = False

    def append(self, messages: Sequence[Message], turn: int) -> None:
        """Checkpoint `messages`; the first checkpoint is written in the background."""
        if self.ephemeral:
            return
        if self._creating is None and self.handle is not None:
            self._inner.append(messages, turn)
        elif self._creating is None:
            self._creating = asyncio.create_task(self._create(messages, turn), name="vtcode-subagent-history")
        elif not self._creating.done():
            self._waiting.append((messages, turn))
        else:
            self._inner.append(messages, turn)

    def replace(self, messages: Sequence[Message], summary: str, artifact_path: str | None = None) -> None:
        """Checkpoint a compaction (compaction waits for `handle`, so the folder exists by then)."""
        self._inner.replace(messages, summary, artifact_path)

    def record(self, event: Event) -> None:
        """Append an event (kept in memory while the folder is being created)."""
        if self._creating is not None and not self._creating.done():
            self._waiting.append(event)
        else:
            self._inner.record(event)

    def close(self) -> None:
        """Release the files now, or once the folder's creation ends."""
        self._closed = True
        if self._creating is None or self._creating.done():
            self._inner.close()

    async def settled(self) -> None:
        """Wait until everything checkpointed so far is written."""
        if self._creating is not None:
            await asyncio.gather(self._creating, return_exceptions=True)

    async def _create(self, messages: Sequence[Message], turn: int) -> None:
        try:
            await asyncio.to_thread(self._inner.append, messages, turn)
        finally:
            self.handle = self._inner.handle
            waiting, self._waiting = self._waiting, []
            for entry in waiting:
                if isinstance(entry, tuple):
                    self._inner.append(*entry)
                else:
                    self._inner.record(entry)
            if self._closed:
                self._inner.close()
