"""Running a short read-only helper program (git, rg) in the workspace and capturing its output.

This is not the agent's shell (that is `exec/`): no PTY, no session, no user-visible output, just
one query whose stdout the tool parses.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CommandOutput:
    """What a finished helper program returned."""

    returncode: int
    stdout: bytes
    stderr: bytes


async def start_helper(argv: Sequence[str], cwd: Path) -> asyncio.subprocess.Process | None:
    """Start `argv` in `cwd` with no input and both outputs piped; None when it cannot be started."""
    try:
        return await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as exc:
        log.info("could not start %s: %s", argv[0], exc)
        return None


async def run_command(argv: Sequence[str], cwd: Path) -> CommandOutput | None:
    """Run `argv` in `cwd` to completion; None when the program cannot be started."""
    process = await start_helper(argv, cwd)
    if process is None:
        return None
    try:
        stdout, stderr = await process.communicate()
    except BaseException:
        # A cancelled tool call must not leave the helper running.
        if process.returncode is None:
            process.kill()
            await asyncio.shield(process.wait())
        raise
    returncode = -1 if process.returncode is None else process.returncode
    return CommandOutput(returncode, stdout, stderr)
