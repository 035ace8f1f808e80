"""A follow-up an Esc held stays held across `/new` and `/resume`, and is labelled as queued before."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.transcript import UserEntry

# Without the hold the held input's request leaves within milliseconds of the resume.
_SETTLE = 0.8


async def _send(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


def _users(app: VtcodeApp) -> list[str]:
    return [str(u.render()) for u in app.transcript.query(UserEntry)]


async def test_input_held_by_esc_waits_after_new_and_resume_until_the_next_message(tmp_path: Path) -> None:
    slow = Reply(text="busy " * 3000, chunk_size=5, delay_between=0.02)
    with server_for("chat", [slow, Reply(text="the held one ran"), Reply(text="the new one ran")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            first = app.session
            assert first is not None
            await _send(pilot, "long answer please")
            await until(pilot, lambda: "busy" in screen_text(app), "the turn streaming")
            await _send(pilot, "ignore me")
            await pilot.press("escape")
            await until(pilot, lambda: "pending input(s) held" in screen_text(app), "the hold")
            await _send(pilot, "/new")
            await until(pilot, lambda: app.session not in (None, first), "a new session")
            await _send(pilot, f"/resume {first.id}")
            await until(pilot, lambda: app.session is not None and app.session.id == first.id, "the resume")
            await until(pilot, lambda: "pending input(s) held" in screen_text(app), "the hold again")
            await asyncio.sleep(_SETTLE)
            requests_after_resume = len(server.requests)
            await _send(pilot, "do this instead")
            await until(pilot, lambda: "the new one ran" in screen_text(app), "both turns")
            users = _users(app)
        bodies = [r.json() for r in server.requests]
    assert requests_after_resume == 1
    assert users[-2:] == ["› (queued before) ignore me", "› do this instead"]
    assert [b["messages"][-1]["content"] for b in bodies[1:]] == ["ignore me", "do this instead"]
