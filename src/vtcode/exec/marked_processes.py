"""Processes found by an environment marker, on whatever machine this runs: signalled, or killed for good.

A batch task on a Ray node runs under a marker variable that every one of its processes inherits. When
the driver interrupts such a task, or force-cancels it (Ray then kills the worker that ran it, which
takes its direct children but not what they left behind), a small task on the same node uses these
functions to reach the rest: nothing is found by name or by a pid that may have been reused.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

import psutil

_POLL_SECONDS = 0.1


def marked_pids(name: str, value: str) -> list[int]:
    """Pids of the processes whose environment has `name=value` (those this user may read)."""
    found = []
    for proc in psutil.process_iter():
        with contextlib.suppress(psutil.Error, OSError):
            if proc.environ().get(name) == value:
                found.append(proc.pid)
    return found


def interrupt_marked(name: str, value: str) -> int:
    """SIGINT the group of each topmost marked process (whose parent is not marked), as a driver would
    its own child's; the commands under it are left to it, as in a local batch. How many groups."""
    marked = set(marked_pids(name, value))
    groups = 0
    for pid in marked:
        with contextlib.suppress(psutil.Error, OSError):
            if psutil.Process(pid).ppid() not in marked and os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGINT)
                groups += 1
    return groups


def kill_marked(name: str, value: str, *, settle_s: float = 5.0) -> int:
    """SIGKILL every marked process, again for any started meanwhile, until none is left; how many."""
    killed: set[int] = set()
    deadline = time.monotonic() + settle_s
    while pids := [pid for pid in marked_pids(name, value) if _alive(pid)]:
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            killed.add(pid)
        if time.monotonic() > deadline:
            break
        time.sleep(_POLL_SECONDS)
    return len(killed)


def end_process(pid: int, create_time: float, *, wait_s: float) -> None:
    """Wait up to `wait_s` for the process (`pid` as created at `create_time`) to end, then SIGKILL it."""
    try:
        proc = psutil.Process(pid)
        if abs(proc.create_time() - create_time) > 0.01:
            return  # the pid now belongs to another process
        proc.wait(timeout=wait_s)
    except psutil.TimeoutExpired:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    except psutil.Error:
        return


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False
