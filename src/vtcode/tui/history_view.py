"""A resumed session's past as it was seen: prompts, tool cards with outputs and diffs, steering,
interruptions and compactions, replayed from its stored events; from its messages when it has none."""

from __future__ import annotations

from collections.abc import Sequence

from vtcode.protocol.events import (
    Event,
    IntentApplied,
    IntentQueued,
    ItemCompleted,
    ItemStarted,
    ThreadCompacted,
    TurnFailed,
    TurnStarted,
)
from vtcode.protocol.messages import AssistantMessage, Message, UserMessage
from vtcode.runtime.user_shell import typed_command
from vtcode.tui.transcript import AnswerEntry, NoticeEntry, Transcript, UserEntry, compaction_text


async def show_history(transcript: Transcript, messages: Sequence[Message], events: Sequence[Event]) -> None:
    """Show the past of a resumed session."""
    if any(isinstance(e, TurnStarted) for e in events):
        await _replay(transcript, messages, events)
    else:
        await _show_messages(transcript, messages)


async def _show_messages(transcript: Transcript, messages: Sequence[Message]) -> None:
    for message in messages:
        if isinstance(message, UserMessage) and message.meta.kind == "interruption":
            await transcript.add(NoticeEntry("interrupted"))
        elif isinstance(message, UserMessage) and (typed := _typed(message)) is not None:
            await transcript.add(UserEntry(typed))
        elif isinstance(message, AssistantMessage) and message.content:
            entry = AnswerEntry()
            await transcript.add(entry)
            await entry.complete(message.content)


async def _replay(transcript: Transcript, messages: Sequence[Message], events: Sequence[Event]) -> None:
    # The prompts are in the history (events carry no prompt text): by turn, and by intent.
    prompts: dict[int, list[str]] = {}
    by_intent: dict[str, str] = {}
    for message in messages:
        if not isinstance(message, UserMessage) or (typed := _typed(message)) is None:
            continue
        if message.meta.intent_id:
            by_intent[message.meta.intent_id] = typed
        elif message.meta.turn is not None:
            prompts.setdefault(message.meta.turn, []).append(typed)
    modes: dict[str, str] = {}
    for event in events:
        match event:
            case IntentQueued(intent_id=intent_id, mode=queued_mode):
                modes[intent_id] = queued_mode
            case TurnStarted(turn_id=turn_id):
                for text in prompts.pop(_turn_number(turn_id), []):
                    await transcript.add(UserEntry(text))
            case IntentApplied(intent_id=intent_id) if intent_id in by_intent:
                steer = modes.get(intent_id) == "steer"
                await transcript.add(UserEntry(by_intent.pop(intent_id), mode="steer" if steer else ""))
            case ItemStarted(item=item) if item is not None:
                await transcript.show_item(item)
            case ItemCompleted(item=item) if item is not None:
                await transcript.complete_item(item)
            case TurnFailed(kind="interrupted"):
                await transcript.add(NoticeEntry("interrupted"))
            case TurnFailed(message=failure, hint=hint):
                await transcript.add(NoticeEntry(failure, error=True, hint=hint))
            case ThreadCompacted():
                await transcript.add(NoticeEntry(compaction_text(event)))
            case _:
                pass
    await transcript.add(NoticeEntry("— resumed: the conversation goes on below —"))


def _typed(message: UserMessage) -> str | None:
    """What the user typed for a user message; None for vtcode's own (the environment context item,
    an interruption's note)."""
    if message.meta.kind is None:
        return message.content
    return typed_command(message)


def _turn_number(turn_id: str | None) -> int:
    try:
        return int((turn_id or "").removeprefix("turn_"))
    except ValueError:
        return -1
