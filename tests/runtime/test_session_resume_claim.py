"""Resuming claims the session's logs first: while another process writes them the resume is refused, and
a resume that fails for any reason leaves them free, so the same process can try again."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import socket
import sys
from pathlib import Path

import pytest

from tests.runtime.session_helpers import Reader, options
from vtcode.protocol.errors import ConfigError, StoreError
from vtcode.protocol.events import TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for

# Holds the writer locks of the files named on its command line until its stdin closes.
_HOLDER = """
import fcntl, os, sys
fds = [os.open(p, os.O_RDWR) for p in sys.argv[1:]]
for fd in fds:
    fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


async def _one_turn(session: Session, text: str) -> Session:
    """Run one turn of `session` to its end, then close it."""
    reader = Reader(session)
    await session.submit(UserInput(text))
    await reader.wait_for(TurnCompleted)
    await reader.close()
    return session


async def test_a_failed_resume_leaves_the_session_free_for_the_next_try_in_the_same_process(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with server_for("chat", [Reply(text="first"), Reply(text="second")]) as server:
        opts = options(tmp_path, tmp_path, server)
        first = await _one_turn(await Session.open(opts), "hello")
        folder = tmp_path / ".vtcode" / "sessions" / first.id
        resume = dataclasses.replace(opts, resume=first.id)

        holder = await asyncio.create_subprocess_exec(
            sys.executable, "-c", _HOLDER, str(folder / "history.jsonl"), str(folder / "events.jsonl"),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            assert holder.stdout is not None
            assert (await holder.stdout.readline()).strip() == b"held"
            with pytest.raises(StoreError, match="being written by another vtcode process"):
                await Session.open(resume)
        finally:
            await holder.communicate(b"")

        # Refused after the claim (an unknown provider): the claim is given back.
        unknown = dataclasses.replace(
            resume, settings=options(tmp_path, tmp_path, server, provider="nope").settings
        )
        with pytest.raises(ConfigError):
            await Session.open(unknown)

        events_before = (folder / "events.jsonl").stat().st_size
        with caplog.at_level(logging.WARNING, logger="vtcode"):
            await _one_turn(await Session.open(resume), "once more")
        sent = [m for m in server.requests[-1].json()["messages"] if m["role"] == "user"]
    assert len(server.requests) == 2
    assert sent[-1]["content"] == "once more"
    assert "being written" not in caplog.text, caplog.text
    assert (folder / "events.jsonl").stat().st_size > events_before


async def test_a_resume_cancelled_while_it_is_built_gives_the_session_back(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="first"), Reply(text="second")]) as server:
        opts = options(tmp_path, tmp_path, server)
        first = await _one_turn(await Session.open(opts), "hello")
        # An Ollama host that accepts and never answers: building the resumed session waits out its
        # probe in a worker thread, after the session's files were claimed.
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        try:
            slow = options(tmp_path, tmp_path, server, provider="ollama", model=None)
            host = f"http://127.0.0.1:{silent.getsockname()[1]}"
            slow = dataclasses.replace(slow, env={"OLLAMA_HOST": host}, resume=first.id)
            opening = asyncio.create_task(Session.open(slow))
            await asyncio.sleep(0.1)
            opening.cancel()
            with pytest.raises(asyncio.CancelledError):
                await opening
        finally:
            silent.close()
        # The abandoned build gives the files back when its thread ends; until then a resume is refused
        # as busy, as it would be for another process.
        async with asyncio.timeout(30):
            while True:
                try:
                    again = await Session.open(dataclasses.replace(opts, resume=first.id))
                    break
                except StoreError:
                    await asyncio.sleep(0.1)
        await _one_turn(again, "once more")
    assert len(server.requests) == 2
