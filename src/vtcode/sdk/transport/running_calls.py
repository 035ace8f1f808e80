"""The child's calls running in the program (its tools' and hooks' callbacks), by call id: the child may
withdraw one (`_vtcode/tool_cancel`, `_vtcode/hook_cancel`) while it runs, and closing stops them all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class RunningCalls(Generic[T]):
    """Calls answered with a `T`; a withdrawn one is answered with what `withdrawn` says."""

    def __init__(self) -> None:
        self._running: dict[str, tuple[asyncio.Task[T], Callable[[], None] | None]] = {}

    async def run(
        self,
        call_id: str,
        work: Awaitable[T],
        withdrawn: Callable[[], T],
        on_withdraw: Callable[[], None] | None = None,
    ) -> T:
        """Run `work` as the call `call_id`; `on_withdraw` runs first when the child withdraws it."""
        task = asyncio.ensure_future(work)
        self._running[call_id] = (task, on_withdraw)
        try:
            return await task
        except asyncio.CancelledError:
            if not task.cancelled():
                raise
            return withdrawn()
        finally:
            self._running.pop(call_id, None)

    def withdraw(self, call_id: str) -> None:
        """The child stopped waiting for `call_id` (a timeout, an interrupt): it stops."""
        running = self._running.get(call_id)
        if running is None:
            return
        task, on_withdraw = running
        if on_withdraw is not None:
            on_withdraw()
        task.cancel()

    def cancel_all(self) -> None:
        """The connection is closing: every running call stops."""
        for task, _ in self._running.values():
            task.cancel()
