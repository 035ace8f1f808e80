"""What a compaction writes into the session directory: the archived history and the envelope.

`archive/compaction-NNNN.jsonl` keeps the full history a compaction replaced (`recall_history` reads it);
`envelope.json` takes the summary, the touched files and the artifact path, under the same lock as every
steering writer (`store/intents.py`), so a compaction and `vtcode steer` never lose each other's change.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from vtcode.core.compaction.envelope import Envelope, compaction_update, merge
from vtcode.core.compaction.validity import intent_ids
from vtcode.core.steering import mark_applied
from vtcode.protocol.messages import Message
from vtcode.runtime.plan_state import stored_plan
from vtcode.runtime.stored_history import StoredHistory
from vtcode.store.archive import ArchiveHeader, list_segments, next_segment, read_segment, write_segment
from vtcode.store.intents import IntentStore
from vtcode.store.session import SessionHandle
from vtcode.tools.recall_history import ArchiveReader


def archive_history(
    handle: SessionHandle,
    messages: Sequence[Message],
    trigger: str,
    before: int,
    after: int,
    *,
    ts: float,
) -> str:
    """Write the next archive segment; its path relative to the session directory."""
    header = ArchiveHeader(
        segment=next_segment(handle.archive_dir),
        ts=ts,
        trigger=trigger,
        through_seq=handle.last_seq,
        message_count=len(messages),
        tokens_before=before,
        tokens_after=after,
    )
    path = write_segment(handle.archive_dir, header, messages)
    return str(path.relative_to(handle.dir))


def memory_envelope(
    compacted: Sequence[Message],
    source: Sequence[Message],
    prior: Envelope | None,
    *,
    workspace: str,
    ts: float,
) -> Envelope:
    """The envelope of a session that stores nothing (ephemeral): merged in memory with its previous one."""
    session_id = prior.session_id if prior is not None else ""
    change = _envelope_change(
        compacted, source, workspace=workspace, artifact=None, task_summary=None, session_id=session_id, ts=ts
    )
    return change(prior)


def record_envelope(
    handle: SessionHandle,
    compacted: Sequence[Message],
    source: Sequence[Message],
    *,
    workspace: str,
    artifact: str | None,
    ts: float,
) -> Envelope:
    """Merge the compaction into `envelope.json` under the steering writers' lock; the result."""
    change = _envelope_change(
        compacted,
        source,
        workspace=workspace,
        artifact=artifact,
        task_summary=stored_plan(handle),
        session_id=handle.id,
        ts=ts,
    )
    return IntentStore(handle.dir).update(change)


def _envelope_change(
    compacted: Sequence[Message],
    source: Sequence[Message],
    *,
    workspace: str,
    artifact: str | None,
    task_summary: str | None,
    session_id: str,
    ts: float,
) -> Callable[[Envelope | None], Envelope]:
    """What a compaction does to the envelope before it (none yet: an empty one)."""
    update = compaction_update(
        compacted, source, workspace=workspace, artifact_path=artifact, task_summary=task_summary
    )
    now = dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    # A tagged message summarized away was applied: say so durably, so it is never applied again.
    replaced = intent_ids(source)

    def change(prior: Envelope | None) -> Envelope:
        merged = merge(prior, update, session_id=session_id, now=now)
        return mark_applied(merged, replaced) if replaced else merged

    return change


def archive_reader(history: StoredHistory) -> ArchiveReader:
    """What `recall_history` reads: the session's archived segments, oldest first (none before one)."""

    def read() -> list[tuple[int, Sequence[Message]]]:
        handle = history.handle
        if handle is None:
            return []
        return [(number, read_segment(path)[1]) for number, path in list_segments(handle.archive_dir)]

    return read
