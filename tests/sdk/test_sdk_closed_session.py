"""A closed session refuses new work at once with `UsageError`: no hang, no input silently dropped."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.protocol.errors import UsageError
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for

# Far longer than a refusal takes; a call that waits this long would have waited forever.
_LIMIT = 30


async def test_run_start_and_steer_on_a_closed_session_raise_usage_error(
    tmp_path: Path, transport: TransportName
) -> None:
    with server_for("chat", [Reply(text="first"), Reply(text="never sent")]) as server:
        session = await vt.Session.open(sdk_options(tmp_path, server, transport=transport))
        assert (await session.run("hi")).final_text == "first"
        await session.close()
        for attempt in (session.run("again"), session.start("again"), session.steer("more")):
            with pytest.raises(UsageError, match="the session is closed"):
                await asyncio.wait_for(attempt, _LIMIT)
        await session.close()  # still safe twice
        assert len(server.requests) == 1


def test_sync_session_run_after_close_raises_usage_error(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="first")]) as server:
        session = vt.SyncSession.open(sdk_options(tmp_path, server))
        assert session.run("hi").final_text == "first"
        session.close()
        with pytest.raises(UsageError, match="the session is closed"):
            session.run("again")
        assert len(server.requests) == 1
