"""A fake clock and sleep for unit tests that must not wait."""

from __future__ import annotations


class FakeClock:
    """Time that moves only when told to (or when `sleep` is awaited)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        self.now += seconds

    async def sleep(self, seconds: float) -> None:
        """Record the sleep and advance time instead of waiting."""
        self.sleeps.append(seconds)
        self.now += seconds
