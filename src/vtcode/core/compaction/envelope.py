"""The session memory envelope (reference section 7): schema, merge rules, rendering and placement.

The envelope is the session's compact memory next to `history.jsonl`: what the work is about, touched
files, the last artifact, and the steering bookkeeping (pending intents, applied ids) that is never shown
to the model. Pure: the store writes it atomically; the caller passes the time.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec

from vtcode.core.compaction.summary import SUMMARY_PREFIX
from vtcode.core.touched_paths import touched_paths
from vtcode.protocol.messages import Message, SystemMessage, UserMessage

ENVELOPE_SCHEMA_VERSION = 3
ENVELOPE_HEADER = "[Session Memory Envelope]"
MAX_PENDING_INTENTS = 16
MAX_APPLIED_IDS = 64
MAX_LIST_ITEMS = 5
_FALLBACK_RECENT = 4
_FALLBACK_CHARS = 160


class GroundedFact(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A fact and where it came from."""

    fact: str
    source: str = ""


class IntentImage(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An image of a pending intent, by reference: its base64 text is stored in a file of its own next to
    the envelope (`intent-images/<sha256>`), so the small envelope every writer rewrites stays small.

    `size` is the decoded size in bytes, to describe the image should its file be gone.
    """

    mime_type: str
    sha256: str
    size: int = 0


class PendingIntent(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A steering intent accepted but not yet durably applied (SPEC section 7).

    `mode` is `queue` (a turn of its own) or `steer` (the running turn's next boundary); `created_at` is
    when it was accepted, in seconds since the epoch; `images` go on its user message after the text.
    """

    id: str
    text: str
    mode: Literal["queue", "steer"] = "queue"
    created_at: float | None = None
    images: tuple[IntentImage, ...] = ()


class Envelope(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Schema v3; every field has a default so older files load (reference 7.1, V-3)."""

    session_id: str = ""
    schema_version: int | None = ENVELOPE_SCHEMA_VERSION
    summary: str = ""
    objective: str | None = None
    task_summary: str | None = None
    spec_summary: str | None = None
    evaluation_summary: str | None = None
    verification_summary: str | None = None
    constraints: tuple[str, ...] = ()
    grounded_facts: tuple[GroundedFact, ...] = ()
    touched_files: tuple[str, ...] = ()
    open_questions: tuple[str, ...] = ()
    verification_todo: tuple[str, ...] = ()
    delegation_notes: tuple[str, ...] = ()
    pending_intents: tuple[PendingIntent, ...] = ()
    applied_intent_ids: tuple[str, ...] = ()
    history_artifact_path: str | None = None
    generated_at: str = ""


class EnvelopeUpdate(msgspec.Struct, frozen=True, kw_only=True):
    """What a compaction or a turn boundary learned; None or empty leaves the prior value."""

    summary: str | None = None
    objective: str | None = None
    constraints: tuple[str, ...] = ()
    grounded_facts: tuple[GroundedFact, ...] = ()
    touched_files: tuple[str, ...] = ()
    open_questions: tuple[str, ...] = ()
    pending_intents: tuple[PendingIntent, ...] | None = None
    applied_intent_ids: tuple[str, ...] = ()
    history_artifact_path: str | None = None
    # The agent's plan as text ("Task Tracker"); "" clears it.
    task_summary: str | None = None


def _normalized(text: str) -> str:
    return " ".join(text.split())


def merge_strings(prior: Iterable[str], update: Iterable[str], limit: int | None) -> tuple[str, ...]:
    """Prior then update, each update item moved to the end; case- and space-insensitive; last `limit`."""
    merged: dict[str, str] = {}
    for item in (*prior, *update):
        value = _normalized(item)
        if not value:
            continue
        merged.pop(value.lower(), None)
        merged[value.lower()] = value
    values = tuple(merged.values())
    return values if limit is None else values[-limit:]


def merge_ids(prior: Iterable[str], update: Iterable[str], limit: int = MAX_APPLIED_IDS) -> tuple[str, ...]:
    """Applied intent ids: exact comparison, most recent last, the last `limit` kept."""
    merged: dict[str, None] = {}
    for item in (*prior, *update):
        merged.pop(item, None)
        merged[item] = None
    return tuple(merged)[-limit:]


def merge(prior: Envelope | None, update: EnvelopeUpdate, *, session_id: str, now: str) -> Envelope:
    """The envelope after `update` (reference 7.1 merge rule, 7.2 pending rule)."""
    base = prior or Envelope(session_id=session_id)
    facts: dict[str, GroundedFact] = {}
    for fact in (*base.grounded_facts, *update.grounded_facts):
        key = _normalized(fact.fact).lower()
        if key:
            facts.pop(key, None)
            facts[key] = fact
    pending = base.pending_intents if update.pending_intents is None else update.pending_intents
    return msgspec.structs.replace(
        base,
        session_id=session_id,
        schema_version=ENVELOPE_SCHEMA_VERSION,
        summary=update.summary if update.summary is not None else base.summary,
        objective=update.objective or base.objective,
        task_summary=base.task_summary if update.task_summary is None else update.task_summary or None,
        constraints=merge_strings(base.constraints, update.constraints, MAX_LIST_ITEMS),
        grounded_facts=tuple(facts.values())[-MAX_LIST_ITEMS:],
        touched_files=merge_strings(base.touched_files, update.touched_files, None),
        open_questions=merge_strings(base.open_questions, update.open_questions, MAX_LIST_ITEMS),
        pending_intents=pending[:MAX_PENDING_INTENTS],
        applied_intent_ids=merge_ids(base.applied_intent_ids, update.applied_intent_ids),
        history_artifact_path=update.history_artifact_path or base.history_artifact_path,
        generated_at=now,
    )


def same_content(a: Envelope, b: Envelope) -> bool:
    """Equal but for the write time and artifact path: a refresh that changes nothing is not written."""
    return msgspec.structs.replace(a, generated_at="", history_artifact_path=None) == msgspec.structs.replace(
        b, generated_at="", history_artifact_path=None
    )


def compaction_summary(messages: Sequence[Message]) -> str:
    """The envelope summary at compaction: the summary message's body, else the recent context (7.3)."""
    for message in messages:
        if isinstance(message, SystemMessage) and message.content.strip().startswith(SUMMARY_PREFIX.strip()):
            body = message.content.strip()[len(SUMMARY_PREFIX.strip()) :].strip()
            if body:
                return body
            break
    recent = [m for m in messages if m.content.strip() and not m.content.startswith(SUMMARY_PREFIX.strip())][
        -_FALLBACK_RECENT:
    ]
    if not recent:
        return "Compacted earlier conversation state."
    parts = [f"{_role(m)}: {_normalized(m.content)[:_FALLBACK_CHARS]}" for m in recent]
    return "Compacted earlier conversation state. Recent preserved context: " + " | ".join(parts)


def compaction_update(
    compacted: Sequence[Message],
    source: Sequence[Message],
    *,
    workspace: str,
    artifact_path: str | None,
    pending_intents: tuple[PendingIntent, ...] | None = None,
    applied_intent_ids: tuple[str, ...] = (),
    task_summary: str | None = None,
) -> EnvelopeUpdate:
    """What a compaction writes into the envelope: its summary, the touched files, the artifact path and
    the current plan (`task_summary`), which the summary may have lost.

    Touched files come from the whole pre-compaction history, so instruction scope never shrinks when the
    calls that named a path are summarized away.
    """
    return EnvelopeUpdate(
        summary=compaction_summary(compacted),
        touched_files=tuple(reversed(touched_paths(source, workspace))),
        history_artifact_path=artifact_path,
        pending_intents=pending_intents,
        applied_intent_ids=applied_intent_ids,
        task_summary=task_summary,
    )


def _role(message: Message) -> str:
    return type(message).__name__.removesuffix("Message").lower().replace("toolresult", "tool")


def render(envelope: Envelope, *, in_history: bool = False) -> SystemMessage:
    """The envelope as one system message; pending intents and applied ids are never shown (7.5).

    `in_history`: the copy placed in the history after a compaction, next to the summary message. It
    leaves out what that history already says, so nothing is sent twice: the summary text, and the
    touched files (the summary's "Files touched" names the changed ones; a list of every file read cost
    2 KB per request in a long session). The file on disk and `sessions show` keep every field.
    """
    sections = [ENVELOPE_HEADER if in_history else f"{ENVELOPE_HEADER}\nSummary:\n{envelope.summary}"]
    texts = (
        ("Objective", envelope.objective),
        ("Task Tracker", envelope.task_summary),
        ("Spec Summary", envelope.spec_summary),
        ("Evaluation Summary", envelope.evaluation_summary),
        ("Verification Status", envelope.verification_summary),
    )
    sections += [f"{title}:\n{text}" for title, text in texts if text]
    bullets = (
        ("Constraints", envelope.constraints),
        ("Touched Files", () if in_history else envelope.touched_files),
    )
    sections += [
        f"{title}:\n" + "\n".join(f"- {item}" for item in items) for title, items in bullets if items
    ]
    if envelope.grounded_facts:
        sections.append(
            "Grounded Facts:\n" + "\n".join(f"[{f.source}] {f.fact}" for f in envelope.grounded_facts)
        )
    more = (
        ("Open Questions", envelope.open_questions),
        ("Verification Todo", envelope.verification_todo),
        ("Delegation Notes", envelope.delegation_notes),
    )
    sections += [f"{title}:\n" + "\n".join(f"- {item}" for item in items) for title, items in more if items]
    if envelope.history_artifact_path:
        sections.append(f"History Artifact:\n{envelope.history_artifact_path}")
    return SystemMessage("\n\n".join(sections))


def is_envelope(message: Message) -> bool:
    """Whether `message` is a rendered envelope."""
    return isinstance(message, SystemMessage) and message.content.startswith(ENVELOPE_HEADER)


def strip_envelopes(messages: Sequence[Message]) -> list[Message]:
    """`messages` without rendered envelopes (done before every compaction, reference 5.6)."""
    return [message for message in messages if not is_envelope(message)]


class Placement(enum.Enum):
    """Where the envelope goes: first (manual, recovery) or before the last user or summary (auto)."""

    START = "start"
    BEFORE_LAST_USER_OR_SUMMARY = "before_last_user_or_summary"


def place(messages: Sequence[Message], envelope: SystemMessage, placement: Placement) -> list[Message]:
    """`messages` with old envelopes removed and `envelope` inserted where `placement` says (7.6)."""
    out = strip_envelopes(messages)
    at = 0
    if placement is Placement.BEFORE_LAST_USER_OR_SUMMARY:
        for index in range(len(out) - 1, -1, -1):
            message = out[index]
            if isinstance(message, UserMessage) or (
                isinstance(message, SystemMessage) and message.content.startswith(SUMMARY_PREFIX)
            ):
                at = index
                break
    out.insert(at, envelope)
    return out
