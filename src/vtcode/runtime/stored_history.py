"""The session's durable history: created on the first checkpoint, appended, replaced by compaction.

Until the first checkpoint nothing is on disk (a session opened and closed without input leaves no
trace); events emitted before that are kept and written once the session directory exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path

from vtcode.protocol.events import Event
from vtcode.protocol.messages import Message, UserMessage
from vtcode.store.session import SessionHandle, SessionStore


@dataclass(eq=False)
class StoredHistory:
    """The `History` port of the turn loop, backed by a `SessionHandle`."""

    store: SessionStore
    _: KW_ONLY
    session_id: str
    workspace: Path
    model: str
    provider: str
    handle: SessionHandle | None = None
    # `--ephemeral`: nothing is written; the session lives in memory only (it compacts in memory).
    ephemeral: bool = False
    _early_events: list[Event] = field(default_factory=list, init=False, repr=False)

    def append(self, messages: Sequence[Message], turn: int) -> None:
        """Checkpoint `messages` (fsynced); the first one creates the session, titled by its prompt."""
        if self.ephemeral:
            return
        self._handle(messages).append_messages(messages, turn)

    def replace(self, messages: Sequence[Message], summary: str, artifact_path: str | None = None) -> None:
        """Checkpoint a compaction: `messages` replace everything stored so far."""
        if self.ephemeral:
            return
        self._handle(messages).append_compaction(
            summary=summary, messages=messages, artifact_path=artifact_path
        )

    def record(self, event: Event) -> None:
        """Append an event to `events.jsonl` (kept in memory until the session exists)."""
        if self.ephemeral:
            return
        if self.handle is None:
            self._early_events.append(event)
        else:
            self.handle.append_event(event)

    def close(self) -> None:
        """Release the session's files."""
        if self.handle is not None:
            self.handle.close()

    def _handle(self, messages: Sequence[Message]) -> SessionHandle:
        if self.handle is None:
            title = next(
                (m.content for m in messages if isinstance(m, UserMessage) and m.meta.kind != "context"), ""
            )
            self.handle = self.store.create(
                self.workspace,
                title,
                model=self.model,
                provider=self.provider,
                session_id=self.session_id,
            )
            early, self._early_events = self._early_events, []
            for event in early:
                self.handle.append_event(event)
        return self.handle
