"""A session the caller never gets, because `Session.open` was cancelled or failed while its SessionStart
hooks ran, is closed there: its claimed files, tasks and client do not outlive the open."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.session_helpers import Reader, options
from vtcode.core.hooks.outcome import HookResult
from vtcode.protocol.events import TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.callable_hooks import CallableHook
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


async def _one_turn(session: Session, text: str) -> None:
    reader = Reader(session)
    await session.submit(UserInput(text))
    await reader.wait_for(TurnCompleted)
    await reader.close()


def _session_tasks() -> set[asyncio.Task[Any]]:
    return {t for t in asyncio.all_tasks() if t.get_name() in ("vtcode-session", "vtcode-intents")}


async def test_a_resume_cancelled_while_its_session_start_hooks_run_gives_the_session_back(
    tmp_path: Path,
) -> None:
    started = asyncio.Event()

    async def never_answers(payload: Mapping[str, Any]) -> HookResult:
        started.set()
        await asyncio.Event().wait()
        return HookResult("success")

    with server_for("chat", [Reply(text="first"), Reply(text="second")]) as server:
        opts = options(tmp_path, tmp_path, server)
        first = await Session.open(opts)
        await _one_turn(first, "hello")
        stalling = dataclasses.replace(
            opts,
            resume=first.id,
            callable_hooks=(CallableHook("SessionStart", never_answers, "never_answers"),),
        )
        opening = asyncio.create_task(Session.open(stalling))
        async with asyncio.timeout(30):
            await started.wait()
        opening.cancel()
        with pytest.raises(asyncio.CancelledError):
            await opening
        # Closed before the cancellation reached the caller: no task of it runs on, and its files are
        # free at once for the next resume in this process (before, it failed as "being written by
        # another vtcode process" for as long as the process lived).
        assert _session_tasks() == set()
        again = await Session.open(dataclasses.replace(opts, resume=first.id))
        await _one_turn(again, "once more")
    sent = [m for m in server.requests[-1].json()["messages"] if m["role"] == "user"]
    assert len(server.requests) == 2
    assert sent[-1]["content"] == "once more"
