"""Pause and resume, and the hold an interrupt puts on input that was waiting for the interrupted turn."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.runtime.session_helpers import Reader, conversation, options
from vtcode.protocol.events import (
    IntentQueued,
    ItemCompleted,
    ItemDelta,
    Notice,
    SessionPaused,
    SessionResumed,
    ToolCallItem,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
)
from vtcode.protocol.messages import UserMessage
from vtcode.protocol.ops import Interrupt, Pause, Resume, UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

# Long enough that nothing would still be on its way: without the hold, the next request leaves
# within milliseconds of the event the test waited for.
_SETTLE = 0.4


def _user_texts(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


def _slow_tool_call() -> Reply:
    return Reply(
        text="looking " * 20,
        chunk_size=4,
        delay_between=0.03,
        tool_calls=(ScriptToolCall("list_files", json.dumps({}), id="c1"),),
    )


async def test_pause_holds_the_turn_at_its_boundary_and_resume_delivers_the_follow_up(
    tmp_path: Path,
) -> None:  # S-16
    with server_for("chat", [_slow_tool_call(), Reply(text="refined")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("search the code"))
        await reader.wait_for(ItemDelta)
        await session.submit(Pause())
        paused = await reader.wait_for(SessionPaused)
        await session.submit(UserInput("refine search", mode="steer"))
        queued = await reader.wait_for(IntentQueued)
        await reader.wait_for(ItemCompleted, lambda e: isinstance(e.item, ToolCallItem))
        await asyncio.sleep(_SETTLE)
        # The tool batch ran; the next model request waits for the user.
        requests_while_paused = len(server.requests)
        assert session.paused
        await session.submit(Resume())
        done = await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert (paused.reason, paused.turn_id) == ("requested", "turn_1")
    assert queued.mode == "steer"
    assert requests_while_paused == 1
    # The same turn went on (not cancelled), and its next request carried the follow-up.
    assert done.turn_id == "turn_1"
    assert not reader.of(TurnFailed)
    assert _user_texts(bodies[1])[-1] == "refine search"
    assert len(reader.of(SessionResumed)) == 1


async def test_input_while_paused_waits_for_resume_even_when_idle(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="one"), Reply(text="two")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(Pause())
        await session.submit(UserInput("first"))
        await session.submit(UserInput("second"))
        await reader.wait_for(IntentQueued, lambda e: e.text == "second")
        await asyncio.sleep(_SETTLE)
        held = len(server.requests)
        await session.submit(Resume())
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_2")
        await session.submit(Resume())
        not_paused = await reader.wait_for(Notice, lambda e: "not paused" in e.message)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert held == 0
    assert [_user_texts(b)[-1] for b in bodies] == ["first", "second"]
    assert not_paused.level == "info"


async def test_interrupt_beats_a_follow_up_typed_before_it(tmp_path: Path) -> None:  # S-15
    slow = Reply(text="x" * 400, chunk_size=4, delay_between=0.05)
    with server_for("chat", [slow, Reply(text="held one"), Reply(text="new one")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("long answer please"))
        await reader.wait_for(ItemDelta)
        await session.submit(UserInput("ignore me", mode="steer"))
        await session.submit(Interrupt())
        failed = await reader.wait_for(TurnFailed)
        paused = await reader.wait_for(SessionPaused)
        await asyncio.sleep(_SETTLE)
        # The interrupted turn is cancelled and nothing it was followed by starts by itself.
        requests_after_interrupt = len(server.requests)
        history_after_interrupt = [
            m.content for m in conversation(session.messages) if isinstance(m, UserMessage)
        ]
        assert [p.text for p in session.pending] == ["ignore me"]
        # The user goes on: what the interrupt held runs first (nothing lost), then the new input.
        await session.submit(UserInput("do this instead"))
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_3")
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert failed.kind == "interrupted"
    assert (paused.reason, paused.pending_intents) == ("interrupted", 1)
    assert requests_after_interrupt == 1
    assert "ignore me" not in history_after_interrupt
    assert [_user_texts(b)[-1] for b in bodies[1:]] == ["ignore me", "do this instead"]
    assert [e.turn_id for e in reader.of(TurnStarted)] == ["turn_1", "turn_2", "turn_3"]


async def test_an_interrupt_with_nothing_waiting_does_not_pause(tmp_path: Path) -> None:
    slow = Reply(text="x" * 400, chunk_size=4, delay_between=0.05)
    with server_for("chat", [slow, Reply(text="after")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("long answer please"))
        await reader.wait_for(ItemDelta)
        await session.submit(Interrupt())
        await reader.wait_for(TurnFailed)
        assert not session.paused
        await session.submit(UserInput("again"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
    assert not reader.of(SessionPaused)
