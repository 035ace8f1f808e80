"""Durable steering intents as pure state changes of the session envelope (SPEC section 7).

An intent is pending from the moment it is accepted (the envelope was written durably) until its tagged
user message is checkpointed in the history; then it moves to the applied window. Recovery compares ids,
never texts, so two identical follow-ups stay two intents and none is applied twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from vtcode.core.compaction.envelope import (
    MAX_APPLIED_IDS,
    MAX_PENDING_INTENTS,
    Envelope,
    PendingIntent,
    merge_ids,
)
from vtcode.protocol.errors import QueueFullError
from vtcode.protocol.messages import Message, UserMessage


def enqueue(envelope: Envelope, intent: PendingIntent) -> Envelope:
    """`envelope` with `intent` pending at the end; the same id twice is accepted once.

    Raises `QueueFullError` (exit 3) when 16 intents already wait: nothing is dropped to make room.
    """
    pending = envelope.pending_intents
    if any(p.id == intent.id for p in pending) or intent.id in envelope.applied_intent_ids:
        return envelope
    if len(pending) >= MAX_PENDING_INTENTS:
        raise QueueFullError(
            f"the steering queue of session {envelope.session_id} already holds "
            f"{MAX_PENDING_INTENTS} pending intents",
            hint="wait until the session applies some, or cancel one with `vtcode steer --cancel ID`",
        )
    return msgspec.structs.replace(envelope, pending_intents=(*pending, intent))


def cancel(envelope: Envelope, intent_id: str) -> tuple[Envelope, PendingIntent | None]:
    """`envelope` without the pending intent `intent_id`, and that intent (None when not pending)."""
    found = next((p for p in envelope.pending_intents if p.id == intent_id), None)
    if found is None:
        return envelope, None
    kept = tuple(p for p in envelope.pending_intents if p.id != intent_id)
    return msgspec.structs.replace(envelope, pending_intents=kept), found


def mark_applied(envelope: Envelope, intent_ids: Iterable[str]) -> Envelope:
    """`envelope` after the tagged messages of `intent_ids` were checkpointed: pending → applied window."""
    ids = list(intent_ids)
    done = set(ids)
    return msgspec.structs.replace(
        envelope,
        pending_intents=tuple(p for p in envelope.pending_intents if p.id not in done),
        applied_intent_ids=merge_ids(envelope.applied_intent_ids, ids, MAX_APPLIED_IDS),
    )


def tagged_intent_ids(messages: Sequence[Message]) -> set[str]:
    """Ids of intents whose user message is in the history (the proof they were applied)."""
    return {m.meta.intent_id for m in messages if isinstance(m, UserMessage) and m.meta.intent_id}


class Recovery(msgspec.Struct, frozen=True):
    """What resuming a session does with its envelope's pending intents."""

    envelope: Envelope
    requeued: tuple[PendingIntent, ...]
    already_applied: tuple[str, ...]


def recover(envelope: Envelope, history: Sequence[Message], recorded: Iterable[str] = ()) -> Recovery:
    """Pending intents already in the history (a crash between checkpoint and envelope update) or in the
    applied window are dropped as applied; the rest wait again, in their order.

    `recorded` are the intent ids of every history record, also those a compaction replaced: a tagged
    message summarized away was still applied (openai/codex#21291)."""
    applied = tagged_intent_ids(history) | set(envelope.applied_intent_ids) | set(recorded)
    done = tuple(p.id for p in envelope.pending_intents if p.id in applied)
    requeued = tuple(p for p in envelope.pending_intents if p.id not in applied)
    cleaned = mark_applied(envelope, done) if done else envelope
    return Recovery(envelope=cleaned, requeued=requeued, already_applied=done)


def unanswered_prompt(history: Sequence[Message]) -> UserMessage | None:
    """The user's message a resumed history ends with, which no reply followed (None when answered).

    A run killed or failed before the model replied leaves it last. Context items and the note of an
    interrupt are written by vtcode: after an interrupt the user chose not to have the prompt answered.
    """
    last = history[-1] if history else None
    if isinstance(last, UserMessage) and last.meta.kind is None:
        return last
    return None
