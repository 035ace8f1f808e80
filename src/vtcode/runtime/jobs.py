"""Command sessions as a person manages them (the TUI's `/jobs`): list, read output, wait, kill.

The model manages the same sessions with `write_stdin`; a session the user ends here is reported to the
model the next time it asks for it (its id is no longer found).
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from vtcode.exec.errors import SessionError
from vtcode.exec.manager import SessionManager
from vtcode.exec.spool import SPOOL_SUFFIX, spool_dir

if TYPE_CHECKING:
    from vtcode.exec.session import CommandSession

# The most output `/jobs show` reads from the end of a spool.
OUTPUT_TAIL_BYTES = 64 * 1024
# The most output a command card's full view reads (from the end of the spool).
FULL_OUTPUT_BYTES = 8 * 1024 * 1024
_SESSION_ID = re.compile(r"[A-Za-z0-9_-]+")


class Job(msgspec.Struct, frozen=True):
    """One command session: `exit_code` is None while it runs."""

    id: str
    command: str
    running: bool
    exit_code: int | None
    output_bytes: int


class Jobs:
    """The command sessions of one session."""

    def __init__(self, manager: SessionManager | None) -> None:
        self._manager = manager

    def list(self) -> tuple[Job, ...]:
        """Every session not collected yet, oldest first."""
        if self._manager is None:
            return ()
        return tuple(_job(s) for s in self._manager.sessions.values())

    @property
    def running(self) -> int:
        """How many commands still run."""
        return sum(1 for job in self.list() if job.running)

    def output(self, job_id: str, limit: int = OUTPUT_TAIL_BYTES) -> str:
        """The end of the job's output as stored in its spool (at most `limit` bytes)."""
        session = self._get(job_id)
        spool = session.output.spool
        spool.sync()
        return _spool_tail(spool.path, job_id, limit)

    async def wait(self, job_id: str, seconds: float) -> Job:
        """Wait up to `seconds` for the job's command to exit (and its output to drain); its state then."""
        session = self._get(job_id)
        await session.settle(asyncio.get_running_loop().time() + seconds)
        return _job(session)

    async def kill(self, job_id: str) -> Job:
        """End the job's whole process group (TERM, then KILL)."""
        session = self._get(job_id)
        await session.terminate()
        return _job(session)

    def _get(self, job_id: str) -> CommandSession:
        if self._manager is None:
            raise SessionError("this session has no command sessions")
        return self._manager.get(job_id)


def _job(session: CommandSession) -> Job:
    return Job(
        id=session.id,
        command=session.info.command,
        running=session.returncode is None,
        exit_code=session.returncode,
        output_bytes=session.output.total_bytes,
    )


def spooled_output(workspace: Path, session_id: str, limit: int = FULL_OUTPUT_BYTES) -> str:
    """A command's whole output as spooled (its last `limit` bytes), also after its session was collected."""
    if not _SESSION_ID.fullmatch(session_id):
        raise SessionError(f"no command session {session_id!r}")
    return _spool_tail(spool_dir(workspace) / f"{session_id}{SPOOL_SUFFIX}", session_id, limit)


def _spool_tail(path: Path, session_id: str, limit: int) -> str:
    """The last `limit` bytes of a spool file as text; a SessionError naming the session if unreadable."""
    try:
        with open(path, "rb") as file:
            size = file.seek(0, os.SEEK_END)
            file.seek(max(0, size - limit))
            data = file.read()
    except OSError as exc:
        raise SessionError(f"the output of {session_id} cannot be read: {exc.strerror or exc}") from None
    return data.decode("utf-8", "replace")
