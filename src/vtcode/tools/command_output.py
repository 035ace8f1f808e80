"""Running a short read-only helper program (git, rg) in the workspace and capturing its output.

This is not the agent's shell (that is `exec/`): no PTY, no session, no user-visible output, just
one query whose stdout the tool parses.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import msgspec

log = logging.getLogger(__name__)

# A hard limit lower than ours already stands and stays (the shell cannot raise it, which is fine);
# a program that aborts on a failed allocation would otherwise dump a `core` file in the workspace.
_WITH_LIMITS = 'ulimit -d {kb} 2>/dev/null; ulimit -c 0 2>/dev/null; exec "$0" "$@"'


class CommandOutput(msgspec.Struct, frozen=True):
    """What a finished helper program returned."""

    returncode: int
    stdout: bytes
    stderr: bytes


async def start_helper(
    argv: Sequence[str], cwd: Path, *, data_limit: int | None = None, env: Mapping[str, str] | None = None
) -> asyncio.subprocess.Process | None:
    """Start `argv` in `cwd` with no input and both outputs piped; None when it cannot be started.

    With `data_limit` the program may hold at most that many bytes of heap (RLIMIT_DATA) and
    writes no core file: an allocation beyond it fails in the program instead of growing it. `env`
    replaces the inherited environment (vtcode's own git runs with a scrubbed one).
    """
    if data_limit is not None and os.name == "posix":
        # The limits are set by a shell that then becomes the program. Setting them in Python
        # between fork and exec (preexec_fn) rules out vfork: the fork then copies vtcode's page
        # tables, 11 ms per start at 100 MB of RSS and 45 ms at 300 MB, against 1 ms for the shell.
        program = shutil.which(argv[0])
        if program is None:
            log.info("could not start %s: not found", argv[0])
            return None
        limits = _WITH_LIMITS.format(kb=max(1, data_limit >> 10))
        argv = ["/bin/sh", "-c", limits, program, *argv[1:]]
    try:
        return await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=None if env is None else dict(env),
        )
    except OSError as exc:
        log.info("could not start %s: %s", argv[0], exc)
        return None


@asynccontextmanager
async def ended_with_the_call(process: asyncio.subprocess.Process) -> AsyncIterator[None]:
    """Kill and reap `process` if the block fails: a cancelled tool call must not leave a helper running."""
    try:
        yield
    except BaseException:
        if process.returncode is None:
            process.kill()
            await asyncio.shield(process.wait())
        raise


async def run_command(
    argv: Sequence[str], cwd: Path, *, env: Mapping[str, str] | None = None
) -> CommandOutput | None:
    """Run `argv` in `cwd` (with `env` when given) to completion; None when it cannot be started."""
    process = await start_helper(argv, cwd, env=env)
    if process is None:
        return None
    async with ended_with_the_call(process):
        stdout, stderr = await process.communicate()
    returncode = -1 if process.returncode is None else process.returncode
    return CommandOutput(returncode, stdout, stderr)
