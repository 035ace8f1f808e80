"""Run a shell command to completion in its own process group, with a timeout and bounded output."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

from vtcode.core.preview import HeadTailBuffer
from vtcode.exec.exit_watch import wait_exited
from vtcode.exec.process_group import register, terminate_group, unregister

# How long output may keep flowing after the shell exited before the group is ended.
DRAIN_GRACE_SECONDS = 0.5


@dataclass(frozen=True)
class CommandResult:
    """How a command ended and a bounded preview of its merged output."""

    exit_code: int | None
    output: str
    timed_out: bool
    wall_time: float
    total_bytes: int


def _shell() -> list[str]:
    return ["/bin/bash", "-c"] if os.path.exists("/bin/bash") else ["/bin/sh", "-c"]


async def run_command(cmd: str, *, cwd: Path, time_limit: float, max_output_bytes: int) -> CommandResult:
    """Run `cmd` with stdout and stderr merged; kill its whole group on timeout or cancellation."""
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        *_shell(),
        cmd,
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
    )
    pgid = proc.pid
    register(pgid)
    buffer = HeadTailBuffer(max_output_bytes)
    timed_out = False

    async def pump() -> None:
        assert proc.stdout is not None
        while block := await proc.stdout.read(65536):
            buffer.feed(block)

    reader = asyncio.create_task(pump())
    try:
        try:
            async with asyncio.timeout(time_limit):
                await wait_exited(proc)
        except TimeoutError:
            timed_out = True
        # A background child may hold the pipe open after the shell exited; give it a moment to
        # drain, then end the group (this run-to-completion form never leaves processes behind).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(reader), DRAIN_GRACE_SECONDS)
        if not reader.done() or timed_out:
            await terminate_group(pgid)
        await reader
        await proc.wait()
    except asyncio.CancelledError:
        reader.cancel()
        await asyncio.shield(terminate_group(pgid))
        raise
    finally:
        unregister(pgid)
    output = buffer.preview(max_output_bytes)
    return CommandResult(
        exit_code=None if timed_out else proc.returncode,
        output=output,
        timed_out=timed_out,
        wall_time=time.monotonic() - started,
        total_bytes=buffer.total_bytes,
    )
