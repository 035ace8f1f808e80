"""Process groups: start commands in their own session and terminate the whole group.

A command can leave its group (`setsid cmd &`); `killpg` then misses it. Two things catch such
escapees: every session's environment carries a marker (`VTCODE_EXEC_SESSION`) that its descendants
inherit, and on Linux vtcode becomes a child subreaper, so orphaned descendants are re-parented to
vtcode instead of init and stay findable among its own descendants (reference python-stack.md section 5).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable

log = logging.getLogger(__name__)

# Grace period between SIGTERM and SIGKILL (SPEC section 8.5).
KILL_GRACE_SECONDS = 0.5

# Environment variable naming the session a process belongs to ("<vtcode pid>:<session id>").
SESSION_ENV = "VTCODE_EXEC_SESSION"

_PR_SET_CHILD_SUBREAPER = 36

# Live groups, each with the marker of its session.
_live_groups: dict[int, str] = {}


class _Subreaper:
    """Whether this process adopts its orphaned descendants (process-wide, set once)."""

    enabled = False


def register(pgid: int, marker: str) -> None:
    """Track a group so `kill_all_groups` can reach it (and its marked escapees) at exit."""
    _live_groups[pgid] = marker


def unregister(pgid: int) -> None:
    """Forget a group that has been reaped."""
    _live_groups.pop(pgid, None)


def enable_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux); True when in effect."""
    if _Subreaper.enabled or not sys.platform.startswith("linux"):
        return _Subreaper.enabled
    import ctypes  # only once a command session starts

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        _Subreaper.enabled = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError) as exc:
        log.debug("child subreaper unavailable: %s", exc)
    return _Subreaper.enabled


def disable_subreaper() -> None:
    """Stop adopting orphans (for tests and embedders that share the process)."""
    if not _Subreaper.enabled:
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
    _Subreaper.enabled = False


def subreaper_enabled() -> bool:
    """Whether orphaned descendants are re-parented to this process."""
    return _Subreaper.enabled


def _signal_group(pgid: int, sig: signal.Signals) -> bool:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False
    return True


def signal_processes(pgid: int, pids: set[int], sig: signal.Signals) -> None:
    """Send `sig` to a whole group and to individual processes (escapees); gone ones are skipped."""
    _signal_group(pgid, sig)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def group_alive(pgid: int) -> bool:
    """Whether any process of the group still exists."""
    return _answers(os.killpg, pgid)


def process_alive(pid: int) -> bool:
    """Whether the process still exists (a zombie does, until it is reaped)."""
    return _answers(os.kill, pid)


def _answers(send: Callable[[int, int], None], target: int) -> bool:
    # Signal 0 checks existence only; a process of another user (PermissionError) counts as gone, as it
    # cannot be ours.
    try:
        send(target, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def session_processes(pgid: int, marker: str | None) -> set[int]:
    """Pids of the session's processes: members of its group and descendants carrying its marker.

    With the subreaper every escapee is a descendant of vtcode, so only those are examined; without
    it, every process of this user is.
    """
    import psutil  # 50 ms to import, and only needed when a session ends

    found: set[int] = set()
    subreaper = _Subreaper.enabled
    try:
        candidates = psutil.Process().children(recursive=True) if subreaper else list(psutil.process_iter())
    except psutil.Error:
        return found
    uid = os.getuid()
    for proc in candidates:
        try:
            if os.getpgid(proc.pid) == pgid:
                found.add(proc.pid)
                continue
            if marker is None or (not subreaper and proc.uids().real != uid):
                continue
            if proc.environ().get(SESSION_ENV) == marker:
                found.add(proc.pid)
        except (psutil.Error, OSError):
            continue
    return found


def kill_all_groups() -> None:
    """SIGKILL every tracked group and its marked escapees; for exit paths where no event loop runs."""
    groups = dict(_live_groups)
    for pgid, marker in groups.items():
        escapees = session_processes(pgid, marker)
        with contextlib.suppress(OSError):
            signal_processes(pgid, escapees, signal.SIGKILL)
        unregister(pgid)
