"""A session's hold: while it is on, no turn starts and a running turn waits at its next boundary.

A `pause` operation puts it on and only `resume` takes it off, so several follow-ups can be typed and
queued before the agent goes on. An interrupt puts it on for the input that was waiting for the
interrupted turn (Stop beats a queued follow-up); the user's next own input takes that one off.
"""

from __future__ import annotations

import asyncio
from typing import Literal

HoldReason = Literal["requested", "interrupted"]


class Hold:
    """Whether the session holds, and why; `wait` returns once it does not."""

    def __init__(self) -> None:
        self._released = asyncio.Event()
        self._released.set()
        self.reason: HoldReason | None = None

    @property
    def on(self) -> bool:
        """Whether the session holds."""
        return self.reason is not None

    def put(self, reason: HoldReason) -> bool:
        """Hold from now on; False when nothing changed (a requested hold is never weakened)."""
        if self.reason in (reason, "requested"):
            return False
        self.reason = reason
        self._released.clear()
        return True

    def release(self) -> bool:
        """End the hold; False when there was none."""
        if self.reason is None:
            return False
        self.reason = None
        self._released.set()
        return True

    async def wait(self) -> None:
        """Return once the session does not hold (at once when it does not)."""
        await self._released.wait()
