"""`Session.fork(id)`: a new session starting from a copy of the stored history; the original untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


def _sent(body: dict[str, object]) -> str:
    return json.dumps(body["messages"])


async def test_a_fork_carries_the_history_and_the_original_resumes_unchanged(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [Reply(text="noted kumquat"), Reply(text="fork answer"), Reply(text="original answer")]
    with server_for("chat", script) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as original:
            await original.run("remember the word kumquat")
        async with await vt.Session.fork(
            original.id, sdk_options(tmp_path, server, transport=transport)
        ) as fork:
            forked = await fork.run("in the fork: say plum")
        async with await vt.Session.resume(
            original.id, sdk_options(tmp_path, server, transport=transport)
        ) as again:
            resumed = await again.run("which word?")
        fork_body, original_body = server.requests[1].json(), server.requests[2].json()
    assert fork.id != original.id
    assert again.id == original.id
    # The fork's first request carries the original's history.
    assert "remember the word kumquat" in _sent(fork_body)
    assert "noted kumquat" in _sent(fork_body)
    assert "in the fork: say plum" in _sent(fork_body)
    # The original goes on as if the fork never happened.
    assert "remember the word kumquat" in _sent(original_body)
    assert "in the fork" not in _sent(original_body)
    assert "fork answer" not in _sent(original_body)
    assert (forked.final_text, resumed.final_text) == ("fork answer", "original answer")


async def test_forking_an_unknown_session_is_a_usage_error(tmp_path: Path) -> None:
    with server_for("chat", []) as server, pytest.raises(vt.VtcodeError, match="no stored session"):
        await vt.Session.fork("no-such-session", sdk_options(tmp_path, server))


def test_a_sync_session_forks_too(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="one"), Reply(text="two")]) as server:
        with vt.SyncSession.open(sdk_options(tmp_path, server)) as s:
            s.run("first words")
        with vt.SyncSession.fork(s.id, sdk_options(tmp_path, server)) as f:
            f.run("second words")
        assert "first words" in _sent(server.requests[1].json())
    assert f.id != s.id
