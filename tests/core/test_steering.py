"""Durable steering intents as pure envelope changes: the acceptance cases of the reference, §14.6."""

from __future__ import annotations

import uuid

import pytest

from vtcode.core.compaction.envelope import Envelope, PendingIntent
from vtcode.core.steering import (
    cancel,
    enqueue,
    mark_applied,
    recover,
    tagged_intent_ids,
    unanswered_prompt,
)
from vtcode.protocol.errors import ExitCode, QueueFullError
from vtcode.protocol.messages import AssistantMessage, Message, MessageMeta, UserMessage


def _intent(text: str, intent_id: str | None = None) -> PendingIntent:
    return PendingIntent(id=intent_id or str(uuid.uuid4()), text=text)


def _tagged(text: str, intent_id: str) -> UserMessage:
    return UserMessage(text, meta=MessageMeta(intent_id=intent_id))


def test_intents_keep_their_order_and_distinct_uuids() -> None:  # S-1
    a, b = _intent("a"), _intent("b")
    envelope = enqueue(enqueue(Envelope(session_id="s"), a), b)
    assert [p.text for p in envelope.pending_intents] == ["a", "b"]
    assert a.id != b.id
    assert all(uuid.UUID(p.id).version == 4 for p in envelope.pending_intents)


def test_the_seventeenth_pending_intent_is_refused_and_nothing_is_dropped() -> None:  # S-2
    envelope = Envelope(session_id="s")
    accepted = [_intent(f"n{i}") for i in range(16)]
    for intent in accepted:
        envelope = enqueue(envelope, intent)
    with pytest.raises(QueueFullError) as refused:
        enqueue(envelope, _intent("one too many"))
    assert refused.value.exit_code == ExitCode.QUEUE_FULL
    assert "16 pending intents" in refused.value.message
    assert list(envelope.pending_intents) == accepted
    # One applied frees one place.
    envelope = mark_applied(envelope, [accepted[0].id])
    assert len(enqueue(envelope, _intent("now fits")).pending_intents) == 16


def test_the_same_id_twice_is_one_intent() -> None:
    intent = _intent("once")
    envelope = enqueue(enqueue(Envelope(), intent), intent)
    assert envelope.pending_intents == (intent,)
    assert enqueue(mark_applied(envelope, [intent.id]), intent).pending_intents == ()


def test_applying_moves_ids_to_a_window_of_64() -> None:  # S-4, S-7
    envelope = Envelope()
    ids = [f"id-{n}" for n in range(1, 66)]
    for intent_id in ids:
        envelope = mark_applied(enqueue(envelope, _intent(intent_id, intent_id)), [intent_id])
    assert envelope.pending_intents == ()
    assert envelope.applied_intent_ids == tuple(ids[1:])


def test_cancel_removes_only_a_pending_intent() -> None:
    keep, drop = _intent("keep"), _intent("drop")
    envelope, removed = cancel(enqueue(enqueue(Envelope(), keep), drop), drop.id)
    assert (envelope.pending_intents, removed) == ((keep,), drop)
    assert cancel(envelope, "unknown") == (envelope, None)


@pytest.mark.parametrize(
    ("case", "pending", "applied", "history_tags", "requeued"),
    [
        ("B: accepted, not applied", ["X"], [], [], ["X"]),
        ("C: applied but not checkpointed", ["X"], [], [], ["X"]),
        ("D: checkpointed, envelope not updated", ["X"], [], ["X"], []),
        ("E: envelope updated", [], ["X"], ["X"], []),
        ("G: summarized away, still in the window", ["X"], ["X"], [], []),
        ("order kept: oldest first", ["F0", "Q1"], [], [], ["F0", "Q1"]),
    ],
)
def test_the_crash_matrix(
    case: str, pending: list[str], applied: list[str], history_tags: list[str], requeued: list[str]
) -> None:  # S-8, S-9, S-10, S-12, S-18
    envelope = Envelope(
        pending_intents=tuple(_intent(f"text of {i}", i) for i in pending),
        applied_intent_ids=tuple(applied),
    )
    history: list[Message] = [UserMessage("start"), *(_tagged(f"text of {t}", t) for t in history_tags)]
    recovery = recover(envelope, history)
    assert [p.id for p in recovery.requeued] == requeued, case
    assert [p.id for p in recovery.envelope.pending_intents] == requeued, case


def test_identical_texts_are_told_apart_by_id() -> None:  # S-11
    x, y = _intent("finish the request", "X"), _intent("finish the request", "Y")
    envelope = Envelope(pending_intents=(x, y))
    assert recover(envelope, [_tagged("finish the request", "X")]).requeued == (y,)
    assert recover(envelope, []).requeued == (x, y)


def test_recovery_moves_represented_ids_to_the_window() -> None:
    envelope = Envelope(pending_intents=(_intent("t", "X"),), applied_intent_ids=("a", "b"))
    recovery = recover(envelope, [_tagged("t", "X"), AssistantMessage("done")])
    assert recovery.already_applied == ("X",)
    assert recovery.envelope.applied_intent_ids == ("a", "b", "X")
    assert tagged_intent_ids([_tagged("t", "X"), UserMessage("plain")]) == {"X"}


def test_a_history_ending_with_the_users_message_has_an_unanswered_prompt() -> None:  # S-14
    prompt = UserMessage("what is this project")
    answered = AssistantMessage(content="a coding agent")
    context = UserMessage("cwd: /w", meta=MessageMeta(kind="context"))
    interrupted = UserMessage("[interrupted]", meta=MessageMeta(kind="interruption"))
    assert unanswered_prompt([context, prompt]) is prompt
    assert unanswered_prompt([prompt, answered]) is None
    # The user chose to stop it: resuming does not answer it as if a crash had cut it off.
    assert unanswered_prompt([prompt, interrupted]) is None
    # vtcode's own context item is not the user's prompt.
    assert unanswered_prompt([prompt, answered, context]) is None
    assert unanswered_prompt([]) is None
