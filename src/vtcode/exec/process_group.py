"""Process groups: start commands in their own session and terminate the whole group."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal

# Grace period between SIGTERM and SIGKILL (SPEC section 8.5).
KILL_GRACE_SECONDS = 0.5

_live_groups: set[int] = set()


def register(pgid: int) -> None:
    """Track a group so `kill_all_groups` can reach it at exit."""
    _live_groups.add(pgid)


def unregister(pgid: int) -> None:
    """Forget a group that has been reaped."""
    _live_groups.discard(pgid)


def _signal_group(pgid: int, sig: signal.Signals) -> bool:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False
    return True


def group_alive(pgid: int) -> bool:
    """Whether any process of the group still exists."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


async def terminate_group(pgid: int, grace: float = KILL_GRACE_SECONDS) -> None:
    """SIGTERM the group, then SIGKILL whatever is left after `grace` seconds."""
    if not _signal_group(pgid, signal.SIGTERM):
        unregister(pgid)
        return
    deadline = asyncio.get_running_loop().time() + grace
    # The group has no exit notification we can await (its members are not all our children),
    # so poll briefly within the grace period.
    while group_alive(pgid) and asyncio.get_running_loop().time() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.02)
    _signal_group(pgid, signal.SIGKILL)
    unregister(pgid)


def kill_all_groups() -> None:
    """SIGKILL every tracked group; for interpreter exit paths where no event loop runs."""
    for pgid in list(_live_groups):
        with contextlib.suppress(OSError):
            os.killpg(pgid, signal.SIGTERM)
            os.killpg(pgid, signal.SIGKILL)
        unregister(pgid)
