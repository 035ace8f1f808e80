"""Wait for a child process to exit without waiting for its pipes to close.

`asyncio.subprocess.Process.wait()` only returns once every pipe is closed too, so a background child
that inherited stdout makes it hang although the shell exited long ago. A pidfd becomes readable the
moment the process exits, which gives an event-driven wake-up (SPEC section 8.2) on Linux.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from collections.abc import Callable

# Used only where pidfd_open is missing (non-Linux, old kernels): how often to look at the exit status.
_FALLBACK_POLL_SECONDS = 0.02


def _pidfd(pid: int) -> int | None:
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    with contextlib.suppress(OSError):
        fd: int = opener(pid)
        return fd
    return None


class ExitWatch:
    """Calls `on_exit(returncode)` once, as soon as a `subprocess.Popen` child exits.

    The pidfd wakes the event loop at the moment of exit; `Popen.poll()` then reaps the child, so no
    watcher thread and no polling interval are involved (SPEC section 8.2: waits wake at once on exit).
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        popen: subprocess.Popen[bytes],
        on_exit: Callable[[int], None],
    ) -> None:
        self._loop = loop
        self._popen = popen
        self._on_exit = on_exit
        self._pidfd = _pidfd(popen.pid)
        self._timer: asyncio.TimerHandle | None = None
        self._done = False
        if self._pidfd is not None:
            loop.add_reader(self._pidfd, self._check)
        else:
            self._timer = loop.call_later(_FALLBACK_POLL_SECONDS, self._check)

    def _check(self) -> None:
        if self._done:
            return
        returncode = self._popen.poll()
        if returncode is None:
            if self._pidfd is None:
                self._timer = self._loop.call_later(_FALLBACK_POLL_SECONDS, self._check)
            return
        self.close()
        self._on_exit(returncode)

    def close(self) -> None:
        """Stop watching (idempotent); the reader is removed before the pidfd is closed."""
        self._done = True
        if self._pidfd is not None:
            self._loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
