"""Resuming a stored session: which one, its history replayed and repaired, its pending intents
recovered, and a changed provider or model said and recorded."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from vtcode.core.compaction.envelope import Envelope, PendingIntent
from vtcode.core.history_repair import missing_results
from vtcode.core.steering import Recovery, recover
from vtcode.protocol.errors import UsageError, VtcodeError
from vtcode.protocol.messages import AssistantMessage, Message
from vtcode.runtime.bounded_calls import bounded_message
from vtcode.runtime.turn import ConversationState
from vtcode.store.intents import IntentStore
from vtcode.store.session import SessionHandle, SessionStore


def stored_session(
    store: SessionStore, workspace: Path, *, resume: str | None, continue_last: bool
) -> SessionHandle | None:
    """The stored session to resume, `resume` by id or the workspace's latest, claimed for writing (a
    `StoreError` while another vtcode process writes it); None for a new one."""
    session_id = resume
    if continue_last:
        session_id = store.latest_for_workspace(workspace)
        if session_id is None:
            raise UsageError(
                f"no stored session for {workspace}",
                hint="start one with `vtcode exec PROMPT`, or list them with `vtcode sessions list`",
            )
    if session_id is None:
        return None
    handle = store.open(session_id)
    handle.claim()
    return handle


def replay_history(
    handle: SessionHandle,
    workspace: Path,
    state: ConversationState,
    notice: Callable[[str], None],
) -> tuple[str, ...]:
    """Replay the stored history into `state`, repairing calls that never got a result.

    Returns the intent ids tagged in any history record, compacted ones included.
    """
    loaded = handle.load()
    # Histories written before huge tool-call arguments were bounded get the same bounded copy here.
    state.messages.extend(
        bounded_message(workspace, m) if isinstance(m, AssistantMessage) else m for m in loaded.messages
    )
    # Turn numbers continue (item ids are built from them); meta.json may lag the history by a crash.
    state.turns = max([handle.info.turns, *(m.meta.turn or 0 for m in loaded.messages)])
    if os.path.realpath(handle.info.workspace) != os.path.realpath(workspace):
        notice(
            f"session {handle.info.id} ran in {handle.info.workspace}; it continues here "
            f"in {workspace}, so paths in its history may not match"
        )
    for text in loaded.notices:
        notice(text)
    repairs: list[Message] = list(missing_results(state.messages))
    if repairs:
        handle.append_messages(repairs, state.turns)
        state.messages.extend(repairs)
        notice(
            f"the last session stopped while {len(repairs)} tool call(s) ran; they are recorded "
            "as not finished"
        )
    return loaded.intent_ids


def recover_intents(
    handle: SessionHandle,
    state: ConversationState,
    recorded: Sequence[str],
    notice: Callable[[str], None],
) -> tuple[PendingIntent, ...]:
    """Pending intents of the envelope that the history (compacted records included) does not show as
    applied, in order."""
    store = IntentStore(handle.dir)
    found: list[Recovery] = []

    def change(envelope: Envelope) -> Envelope:
        found.append(recover(envelope, state.messages, recorded))
        return found[0].envelope

    store.update(change)
    recovery = found[0]
    if recovery.already_applied:
        notice(
            f"{len(recovery.already_applied)} intent(s) were applied just before the last session "
            "stopped; they are not applied again"
        )
    return recovery.requeued


def note_model_change(
    handle: SessionHandle, provider: str, model: str, notice: Callable[[str], None]
) -> None:
    """A resume with another provider or model says so and records it in meta.json."""
    info = handle.info
    if (info.provider, info.model) == (provider, model) or not info.model:
        return
    notice(f"session {info.id} ran with {info.provider} {info.model}; it continues with {provider} {model}")
    try:
        handle.update_info(model=model, provider=provider)
    except VtcodeError as exc:
        notice(f"meta.json not updated: {exc.user_text()}")
