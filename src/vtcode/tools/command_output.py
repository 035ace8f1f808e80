"""Running a short read-only helper program (git, rg) in the workspace and capturing its output.

This is not the agent's shell (that is `exec/`): no PTY, no session, no user-visible output, just
one query whose stdout the tool parses.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

try:
    import resource
except ImportError:  # Windows: no resource limits; a helper there runs without one
    resource = None  # type: ignore[assignment]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CommandOutput:
    """What a finished helper program returned."""

    returncode: int
    stdout: bytes
    stderr: bytes


async def start_helper(
    argv: Sequence[str], cwd: Path, *, data_limit: int | None = None
) -> asyncio.subprocess.Process | None:
    """Start `argv` in `cwd` with no input and both outputs piped; None when it cannot be started.

    With `data_limit` the program may hold at most that many bytes of heap (RLIMIT_DATA) and
    writes no core file: an allocation beyond it fails in the program instead of growing it.
    """
    limits = None if data_limit is None else _limits(data_limit)
    try:
        return await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            preexec_fn=limits,
        )
    except OSError as exc:
        log.info("could not start %s: %s", argv[0], exc)
        return None


def _limits(data_limit: int) -> Callable[[], None] | None:
    """What the child runs between fork and exec to set its own limits (computed here, not there)."""
    if resource is None or not hasattr(resource, "RLIMIT_DATA"):
        return None
    # The soft limit may not exceed the hard one; the hard limits stay, so nothing else changes.
    data_hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
    core_hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
    data = (data_limit if data_hard == resource.RLIM_INFINITY else min(data_limit, data_hard), data_hard)
    core = (0, core_hard)
    setrlimit, rlimit_data, rlimit_core = resource.setrlimit, resource.RLIMIT_DATA, resource.RLIMIT_CORE

    def apply() -> None:
        # Runs in the forked child: no imports, no logging, no locks; only the two system calls.
        setrlimit(rlimit_data, data)
        # A program that aborts on a failed allocation would otherwise dump its memory to a
        # `core` file in the workspace.
        setrlimit(rlimit_core, core)

    return apply


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
