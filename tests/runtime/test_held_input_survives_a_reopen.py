"""Input an interrupt held stays held when its session is reopened: Stop still beats the follow-up.

The TUI's `/new` then `/resume`, a restarted editor or a crash all reopen the session; its follow-up
typed before Esc must wait for the user's next own input, as it did before the session was closed.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

from tests.runtime.session_helpers import Reader, options
from vtcode.protocol.events import IntentQueued, ItemDelta, SessionPaused, TurnCompleted, TurnFailed
from vtcode.protocol.ops import Interrupt, Pause, Resume, UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for

# Without the hold the held input's request leaves within milliseconds of the reopen.
_SETTLE = 0.6


def _last_user_text(body: dict[str, Any]) -> str:
    return str([m["content"] for m in body["messages"] if m["role"] == "user"][-1])


async def _interrupt_with_a_follow_up(session: Session, reader: Reader) -> None:
    await session.submit(UserInput("long answer please"))
    await reader.wait_for(ItemDelta)
    await session.submit(UserInput("ignore me", mode="steer"))
    await session.submit(Interrupt())
    await reader.wait_for(TurnFailed)
    await reader.wait_for(SessionPaused)


async def test_a_reopened_session_holds_what_an_interrupt_held_until_the_next_input(tmp_path: Path) -> None:
    slow = Reply(text="x" * 400, chunk_size=4, delay_between=0.05)
    with server_for("chat", [slow, Reply(text="held one"), Reply(text="new one")]) as server:
        opts = options(tmp_path, tmp_path, server, headless=False)
        first = await Session.open(opts)
        reader = Reader(first)
        await _interrupt_with_a_follow_up(first, reader)
        await reader.close()

        reopened = await Session.open(dataclasses.replace(opts, resume=first.id))
        reader = Reader(reopened)
        paused = await reader.wait_for(SessionPaused)
        await asyncio.sleep(_SETTLE)
        requests_after_reopen = len(server.requests)
        held = [p.text for p in reopened.pending]
        still_paused = reopened.paused
        await reopened.submit(UserInput("do this instead"))
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_3")
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert (paused.reason, paused.pending_intents) == ("interrupted", 1)
    assert still_paused
    assert requests_after_reopen == 1
    assert held == ["ignore me"]
    # The user went on: the held input first (nothing lost), then the new one.
    assert [_last_user_text(b) for b in bodies[1:]] == ["ignore me", "do this instead"]


async def test_a_session_that_went_on_after_the_interrupt_is_not_held_when_reopened(tmp_path: Path) -> None:
    slow = Reply(text="x" * 400, chunk_size=4, delay_between=0.05)
    with server_for("chat", [slow, Reply(text="held one"), Reply(text="queued")]) as server:
        opts = options(tmp_path, tmp_path, server, headless=False)
        first = await Session.open(opts)
        reader = Reader(first)
        await _interrupt_with_a_follow_up(first, reader)
        await first.submit(Resume())
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_2")
        # Queued while paused by request: not an interrupt's hold, so a reopen runs it (as before).
        await first.submit(Pause())
        await first.submit(UserInput("queued while paused"))
        await reader.wait_for(IntentQueued, lambda e: e.text == "queued while paused")
        await reader.close()

        reopened = await Session.open(dataclasses.replace(opts, resume=first.id))
        reader = Reader(reopened)
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_3")
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert not reader.of(SessionPaused)
    assert [_last_user_text(b) for b in bodies[1:]] == ["ignore me", "queued while paused"]
