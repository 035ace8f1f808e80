"""Approvals as an awaited port: a tool call waits here until a front end answers its request id."""

from __future__ import annotations

import asyncio

from vtcode.protocol.ops import ApprovalAnswer


class ApprovalPort:
    """Pending approval requests of one session, each answered at most once."""

    def __init__(self) -> None:
        self._pending: dict[str, asyncio.Future[ApprovalAnswer]] = {}

    @property
    def pending(self) -> tuple[str, ...]:
        """Request ids that wait for an answer, oldest first."""
        return tuple(self._pending)

    async def ask(self, request_id: str) -> ApprovalAnswer:
        """Wait for the answer to `request_id` (cancelling the waiter withdraws the request)."""
        future: asyncio.Future[ApprovalAnswer] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            return await future
        finally:
            self._pending.pop(request_id, None)

    def answer(self, answer: ApprovalAnswer) -> bool:
        """Deliver an answer; False when no request with that id is waiting (late, or a typo)."""
        future = self._pending.get(answer.request_id)
        if future is None or future.done():
            return False
        future.set_result(answer)
        return True
