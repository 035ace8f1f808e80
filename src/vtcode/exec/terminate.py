"""Ending a command session's processes: SIGTERM, a 500 ms grace, SIGKILL, then reaping adopted ones.

Exits are awaited through pidfds (readable the moment a process exits, whoever its parent is), so
ending a session takes as long as its processes take to die and no longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Collection

from vtcode.exec.process_group import (
    KILL_GRACE_SECONDS,
    process_alive,
    session_processes,
    signal_processes,
    subreaper_enabled,
)

# After SIGKILL, how long to wait for the kernel to finish the processes off.
_KILL_SETTLE_SECONDS = 1.0
_FALLBACK_POLL_SECONDS = 0.02


async def terminate_session(pgid: int, marker: str | None, *, leader: int | None) -> None:
    """TERM the session's group and escapees, KILL what is left after the grace period, reap adopted ones.

    `leader` is the shell's pid while it has not been reaped; it is signalled on its own too, because
    a PTY shell joins its group a moment after it starts.
    """
    own = {leader} if leader is not None else set()
    targets = session_processes(pgid, marker) | own
    signal_processes(pgid, targets, signal.SIGTERM)
    await wait_all_exited(targets, KILL_GRACE_SECONDS)
    # Processes forked during the grace period: the group signal reaches members, a rescan escapees.
    targets |= session_processes(pgid, marker)
    signal_processes(pgid, targets, signal.SIGKILL)
    await wait_all_exited(targets, _KILL_SETTLE_SECONDS)
    reap(targets - own)


async def wait_all_exited(pids: Collection[int], within: float) -> bool:
    """Wait until every process in `pids` has exited (zombies count as exited); False on timeout."""
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return await _poll_all_exited(pids, within)
    loop = asyncio.get_running_loop()
    pending: dict[int, int] = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            pending[opener(pid)] = pid
    if not pending:
        return True
    done = loop.create_future()

    def fired(fd: int) -> None:
        loop.remove_reader(fd)
        os.close(fd)
        pending.pop(fd, None)
        if not pending and not done.done():
            done.set_result(None)

    for fd in pending:
        loop.add_reader(fd, fired, fd)
    try:
        async with asyncio.timeout(within):
            await done
    except TimeoutError:
        return False
    finally:
        for fd in list(pending):
            loop.remove_reader(fd)
            os.close(fd)
    return True


async def _poll_all_exited(pids: Collection[int], within: float) -> bool:
    deadline = asyncio.get_running_loop().time() + within
    while any(process_alive(pid) for pid in pids):
        if asyncio.get_running_loop().time() >= deadline:
            return False
        await asyncio.sleep(_FALLBACK_POLL_SECONDS)
    return True


def reap(pids: Collection[int]) -> None:
    """Collect the exit status of those `pids` that are dead children of vtcode (adopted escapees)."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)


def reap_adopted(pgids: Collection[int], exclude: Collection[int]) -> None:
    """Reap zombie children of vtcode that belong to the session groups `pgids`.

    Only processes of our own session groups are touched: anything else vtcode spawned is waited for
    by whoever spawned it. `exclude` holds session leaders, which their `Popen` reaps.
    """
    if not subreaper_enabled() or not pgids:
        return
    import psutil

    try:
        children = psutil.Process().children()
    except psutil.Error:
        return
    for child in children:
        if child.pid in exclude:
            continue
        try:
            if child.status() != psutil.STATUS_ZOMBIE or os.getpgid(child.pid) not in pgids:
                continue
        except (psutil.Error, OSError):
            continue
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(child.pid, os.WNOHANG)
