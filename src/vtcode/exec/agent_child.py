"""A long-lived agent child on pipes (the SDK's `vtcode acp`): its own process group, gone with us.

The child leads a new session and process group and arms a parent-death signal (`spawn.child_preexec`),
so neither `close()` nor a `kill -9` of the program leaves it behind. Its stderr goes to an unnamed
temporary file, never a pipe nobody drains: a chatty child cannot stall on a full pipe, and the tail
of what it wrote explains a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

from vtcode.exec.spawn import child_preexec

# Lines may be whole tool results: the reader has no line cap of its own (see the SDK's framing).
_READ_LIMIT = 1 << 20
_STDERR_TAIL = 4000
# After closing its input, how long the child gets to shut its sessions down before SIGKILL.
CLOSE_GRACE_SECONDS = 5.0


class AgentChild:
    """A started child: write to `stdin`, read `stdout`; `close()` ends it and its whole group."""

    def __init__(self, proc: asyncio.subprocess.Process, stderr: IO[bytes]) -> None:
        self._proc = proc
        self._stderr = stderr
        assert proc.stdin is not None
        assert proc.stdout is not None
        self.stdin: asyncio.StreamWriter = proc.stdin
        self.stdout: asyncio.StreamReader = proc.stdout

    @property
    def pid(self) -> int:
        """The child's pid (also its process group id)."""
        return self._proc.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the child has been reaped (negative: the signal that ended it)."""
        return self._proc.returncode

    def stderr_tail(self) -> str:
        """The last lines the child wrote to stderr."""
        try:
            size = self._stderr.seek(0, os.SEEK_END)
            self._stderr.seek(max(0, size - _STDERR_TAIL))
            return self._stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    async def wait(self) -> int:
        """Wait for the child to exit; its status."""
        return await self._proc.wait()

    async def close(self, grace: float = CLOSE_GRACE_SECONDS) -> None:
        """Close its input (it shuts down on end of input), wait `grace`, then kill its process group."""
        if self._proc.returncode is None:
            with contextlib.suppress(OSError, RuntimeError):
                self.stdin.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._proc.wait()), grace)
        # Whatever the child started and left behind goes with its group.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        await self._proc.wait()
        self._stderr.close()


async def start_agent_child(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> AgentChild:
    """Start `argv` with pipes for stdin/stdout; raises OSError when it cannot be started."""
    stderr = tempfile.TemporaryFile()  # noqa: SIM115 - the child's stderr lives as long as the child
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
            preexec_fn=child_preexec(None),
            limit=_READ_LIMIT,
        )
    except BaseException:
        stderr.close()
        raise
    return AgentChild(proc, stderr)
