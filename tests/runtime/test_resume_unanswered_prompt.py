"""Resuming a history that ends with a prompt no reply followed: answered first, once, never lost."""

from __future__ import annotations

import dataclasses
import uuid
from pathlib import Path
from typing import Any

from tests.runtime.session_helpers import Reader, conversation, options
from vtcode.core.compaction.envelope import PendingIntent
from vtcode.protocol.events import IntentQueued, ItemDelta, Notice, TurnCompleted, TurnFailed
from vtcode.protocol.messages import UserMessage
from vtcode.protocol.ops import Interrupt, UserInput
from vtcode.runtime.session import Session
from vtcode.store.intents import IntentStore
from vtcode.store.session import SessionStore
from vtcode.testing.script import HttpError, Reply
from vtcode.testing.wire import server_for


def _user_texts(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


async def _failed_run(tmp_path: Path, prompt: str) -> str:
    """A session whose only request was refused: its history ends with `prompt`, unanswered."""
    with server_for("chat", [HttpError(400, "bad request")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput(prompt))
        await reader.wait_for(TurnFailed)
        await reader.close()
    return session.id


async def test_resume_answers_the_unanswered_prompt_once_before_new_input(tmp_path: Path) -> None:  # S-14
    session_id = await _failed_run(tmp_path, "what is this project")
    with server_for("chat", [Reply(text="a coding agent"), Reply(text="done")]) as server:
        resumed = dataclasses.replace(options(tmp_path, tmp_path, server), resume=session_id)
        session = await Session.open(resumed)
        reader = Reader(session)
        await session.submit(UserInput("and now the tests"))
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_3")
        await reader.close()
        bodies = [r.json() for r in server.requests]
    notice = next(e for e in reader.of(Notice) if "answering it first" in e.message)
    assert "what is this project" in notice.message
    # The first turn answers the history as it stands: the prompt is sent once, not added again.
    assert _user_texts(bodies[0])[-1] == "what is this project"
    assert _user_texts(bodies[0]).count("what is this project") == 1
    assert _user_texts(bodies[1])[-2:] == ["what is this project", "and now the tests"]
    # The new input had to wait for that turn, so it was queued durably.
    assert [e.text for e in reader.of(IntentQueued)] == ["and now the tests"]
    stored = SessionStore(tmp_path / ".vtcode", lambda: 0.0, lambda: "x").open(session_id).load()
    prompts = [m.content for m in conversation(stored.messages) if isinstance(m, UserMessage)]
    assert prompts == ["what is this project", "and now the tests"]


async def test_a_full_steering_queue_does_not_lose_the_unanswered_prompt(tmp_path: Path) -> None:
    session_id = await _failed_run(tmp_path, "what is this project")
    handle = SessionStore(tmp_path / ".vtcode", lambda: 0.0, lambda: "x").open(session_id)
    store = IntentStore(handle.dir)
    for n in range(16):
        store.enqueue(PendingIntent(id=str(uuid.uuid4()), text=f"follow-up {n}"))
    handle.close()
    replies = [Reply(text=f"answer {n}") for n in range(17)]
    with server_for("chat", replies) as server:
        resumed = dataclasses.replace(options(tmp_path, tmp_path, server), resume=session_id)
        session = await Session.open(resumed)
        reader = Reader(session)
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_18")
        await reader.close()
        bodies = [r.json() for r in server.requests]
    # The prompt needs no queue slot: it is answered first, then the 16 recovered intents in order.
    assert [_user_texts(b)[-1] for b in bodies] == [
        "what is this project",
        *(f"follow-up {n}" for n in range(16)),
    ]
    assert all(e.recovered for e in reader.of(IntentQueued))


async def test_a_prompt_the_user_interrupted_is_not_answered_on_resume(tmp_path: Path) -> None:
    slow = Reply(text="x" * 400, chunk_size=4, delay_between=0.05)
    with server_for("chat", [slow]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("delete the build directory"))
        await reader.wait_for(ItemDelta)
        await session.submit(Interrupt())
        await reader.wait_for(TurnFailed)
        await reader.close()
    with server_for("chat", [Reply(text="ok")]) as server:
        resumed = dataclasses.replace(options(tmp_path, tmp_path, server), resume=session.id)
        again = await Session.open(resumed)
        reader = Reader(again)
        await again.submit(UserInput("something else"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert len(bodies) == 1
    assert not [e for e in reader.of(Notice) if "answering it first" in e.message]
    texts = _user_texts(bodies[0])
    assert texts[-3:] == [
        "delete the build directory",
        "[The user interrupted this request before it was answered.]",
        "something else",
    ]


async def test_a_headless_resume_waits_for_its_own_input_before_it_ends(tmp_path: Path) -> None:
    session_id = await _failed_run(tmp_path, "what is this project")
    with server_for("chat", [Reply(text="a coding agent"), Reply(text="done")]) as server:
        base = options(tmp_path, tmp_path, server)
        session = await Session.open(dataclasses.replace(base, resume=session_id, until_idle=True))
        reader = Reader(session)
        # The resumed prompt's turn ends before the front end's input arrives (in `vtcode exec` it is
        # still being stored durably): the run must not end without it.
        await reader.wait_for(TurnCompleted)
        await session.submit(UserInput("and now the tests"))
        await reader.task
        bodies = [r.json() for r in server.requests]
    assert [_user_texts(b)[-1] for b in bodies] == ["what is this project", "and now the tests"]
    assert [e.turn_id for e in reader.of(TurnCompleted)] == ["turn_2", "turn_3"]
