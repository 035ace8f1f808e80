"""Approvals as an awaited port: a tool call waits here until a front end answers its request id."""

from __future__ import annotations

import asyncio

from vtcode.protocol.messages import ToolCall, ToolResultMessage
from vtcode.protocol.ops import ApprovalAnswer

# What the model reads (now and after a resume) for a call whose question an interrupt or a shutdown
# withdrew: unlike a command stopped while running, it never ran, so nothing of it needs checking.
WITHDRAWN = "not run: interrupted while it waited for the user's approval (it was never approved)"


class ApprovalPort:
    """Pending approval requests of one session, each answered at most once."""

    def __init__(self) -> None:
        self._pending: dict[str, asyncio.Future[ApprovalAnswer]] = {}
        # Calls whose request was withdrawn unanswered, until their result is written.
        self._withdrawn: set[str] = set()

    @property
    def pending(self) -> tuple[str, ...]:
        """Request ids that wait for an answer, oldest first."""
        return tuple(self._pending)

    async def ask(self, request_id: str, call_id: str | None = None) -> ApprovalAnswer:
        """Wait for the answer to `request_id` (cancelling the waiter withdraws the request)."""
        future: asyncio.Future[ApprovalAnswer] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            return await future
        except asyncio.CancelledError:
            if call_id is not None:
                self._withdrawn.add(call_id)
            raise
        finally:
            self._pending.pop(request_id, None)

    def answer(self, answer: ApprovalAnswer) -> bool:
        """Deliver an answer; False when no request with that id is waiting (late, or a typo)."""
        future = self._pending.get(answer.request_id)
        if future is None or future.done():
            return False
        future.set_result(answer)
        return True

    def took_back(self, call_id: str) -> bool:
        """Whether the request of `call_id` was withdrawn unanswered (asked once, for its result)."""
        if call_id not in self._withdrawn:
            return False
        self._withdrawn.discard(call_id)
        return True


def unfinished_result(call: ToolCall, reason: str, approvals: ApprovalPort | None) -> ToolResultMessage:
    """The result of a call its batch stopped before it finished: `reason`, or `WITHDRAWN` for a call
    whose approval was still asked when the batch stopped."""
    if approvals is not None and approvals.took_back(call.id):
        reason = WITHDRAWN
    return ToolResultMessage(call_id=call.id, name=call.name, content=reason, is_error=True)
