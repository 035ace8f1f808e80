"""A per-provider gate on task starts, shared by a batch's workers.

Each task's `vtcode exec` already retries its own requests, honouring Retry-After. What the batch adds
is not to pile new tasks onto a provider that just said "slow down": when a running task reports a
retry after HTTP 429 (its `notice` event), new starts for that provider wait as long as the server
asked. An optional rate (tasks per minute) spaces starts out as a token bucket.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from vtcode.core.batch.events_digest import rate_limit_delay

# Pauses longer than this are capped: a bad header must not stall a batch for hours.
_MAX_PAUSE_S = 600.0


class ProviderLimiter:
    """Start gates by provider name: a pause set by Retry-After, and an optional start rate."""

    def __init__(
        self, starts_per_minute: float | None = None, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._interval = 60.0 / starts_per_minute if starts_per_minute else 0.0
        self._clock = clock
        self._paused_until: dict[str, float] = {}
        self._next_start: dict[str, float] = {}
        self._lock = asyncio.Lock()

    def pause(self, provider: str, seconds: float) -> None:
        """Hold new starts for `provider` for `seconds` from now (the longest pause asked wins)."""
        until = self._clock() + min(max(seconds, 0.0), _MAX_PAUSE_S)
        self._paused_until[provider] = max(self._paused_until.get(provider, 0.0), until)

    def wait_time(self, provider: str) -> float:
        """Seconds until `provider` may start a task (0 when it may now)."""
        now = self._clock()
        ready = max(self._paused_until.get(provider, 0.0), self._next_start.get(provider, 0.0))
        return max(0.0, ready - now)

    async def acquire(self, provider: str, stop: asyncio.Event) -> bool:
        """Wait for a start slot; False when `stop` was set first."""
        async with self._lock:
            while (delay := self.wait_time(provider)) > 0:
                try:
                    async with asyncio.timeout(delay):
                        await stop.wait()
                except TimeoutError:
                    continue
                return False
            if stop.is_set():
                return False
            if self._interval:
                self._next_start[provider] = self._clock() + self._interval
            return True

    def observer(self, provider: str) -> Callable[[bytes], None]:
        """A per-line hook for a task's event stream that pauses `provider` on a 429 retry notice."""

        def seen(line: bytes) -> None:
            delay = rate_limit_delay(line)
            if delay is not None:
                self.pause(provider, delay)

        return seen
