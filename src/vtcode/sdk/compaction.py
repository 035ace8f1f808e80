"""`Session.compact()`: the outcome of one `Compact` operation between turns, read off the event stream.

The runtime compacts between turns and says how it went with exactly one event: `thread.compacted`
(the history was replaced), the info notice "nothing to compact" (the history already fits in the
verbatim tail), or a warning notice (failed, interrupted, or blocked by a `pre_compact` hook; the history
is kept as it was), each worded as `protocol.compaction_notices` says. Both transports carry the same
events, so the outcome is recognised here, once.
"""

from __future__ import annotations

import asyncio

from vtcode.protocol.compaction_notices import HISTORY_KEPT, NOTHING_TO_COMPACT
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.events import Event, Notice, ThreadCompacted


class CompactionError(VtcodeError):
    """`compact()` left the history as it was: the compaction failed, was interrupted, or a
    `pre_compact` hook blocked it (`message` says which, as the runtime's notice did)."""


class Waiting:
    """One `compact()` call waiting for its outcome among the session's events."""

    def __init__(self) -> None:
        self._outcome: asyncio.Future[ThreadCompacted | None] = asyncio.get_running_loop().create_future()

    def take(self, event: Event) -> None:
        """Settle the wait if `event` is the compaction's outcome (other events pass by)."""
        if self._outcome.done():
            return
        if isinstance(event, ThreadCompacted) and event.trigger == "manual":
            self._outcome.set_result(event)
        elif (
            isinstance(event, Notice)
            and event.level == "info"
            and event.message.startswith(NOTHING_TO_COMPACT)
        ):
            self._outcome.set_result(None)
        elif (
            isinstance(event, Notice) and event.level == "warning" and event.message.startswith(HISTORY_KEPT)
        ):
            self._outcome.set_exception(CompactionError(event.message))

    def abandon(self, error: BaseException) -> None:
        """The session ended (or its transport broke) before the outcome came: `outcome()` raises `error`."""
        if not self._outcome.done():
            self._outcome.set_exception(error)

    async def outcome(self) -> ThreadCompacted | None:
        """The `thread.compacted` event, or None when there was nothing to compact."""
        return await self._outcome
