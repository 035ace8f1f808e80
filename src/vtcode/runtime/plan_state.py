"""The session's plan: replaced by `update_plan`, stored in the session directory, streamed as events.

One owner for the plan of a session: the tool asks for a replacement, this keeps the current plan,
writes `plan.json` (so a resume and a compaction find it) and emits `plan.updated` for every front end.
"""

from __future__ import annotations

import asyncio
import logging

from vtcode.core.plan import dropped_steps, render
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.events import PlanUpdated
from vtcode.protocol.plan import Plan, PlanStep
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.stored_history import StoredHistory
from vtcode.store.plan_file import read_plan, write_plan
from vtcode.store.session import SessionHandle

log = logging.getLogger(__name__)


class PlanState:
    """The current plan of one session (the `PlanBoard` of the `update_plan` tool)."""

    def __init__(self, history: StoredHistory, emitter: Emitter) -> None:
        self._history = history
        self._emitter = emitter
        self.plan = Plan()
        # Concurrent calls in one batch (the tool is a read) are applied and stored one at a time.
        self._lock = asyncio.Lock()

    def load(self) -> list[str]:
        """Take the plan a resumed session stored (blocking); the problems found, as notices to show."""
        handle = self._history.handle
        if handle is None:
            return []
        try:
            stored = read_plan(handle.dir)
        except VtcodeError as exc:
            return [f"the stored plan is not used: {exc.user_text()}"]
        if stored is not None:
            self.plan = stored
        return []

    async def replace(self, plan: Plan) -> tuple[PlanStep, ...]:
        """Make `plan` the current plan, store and announce it; the unfinished steps it dropped."""
        async with self._lock:
            dropped = dropped_steps(self.plan, plan)
            self.plan = plan
            await self._store(plan)
            self._emitter.emit(PlanUpdated(plan=plan.steps, explanation=plan.explanation, dropped=dropped))
            return dropped

    async def _store(self, plan: Plan) -> None:
        history = self._history
        if history.ephemeral or history.handle is None:
            return
        try:
            await asyncio.to_thread(write_plan, history.handle.dir, plan)
        except VtcodeError as exc:
            # The plan still holds in memory for this run; only a resume would miss it.
            log.debug("plan not stored", exc_info=True)
            self._emitter.warn(f"the plan was not stored: {exc.user_text()}")


def stored_plan(handle: SessionHandle) -> str | None:
    """The session's stored plan as the model reads it after a compaction ("" when there is none).

    None when `plan.json` cannot be read: the envelope then keeps the plan it had.
    """
    try:
        plan = read_plan(handle.dir)
    except VtcodeError:
        log.warning("the plan is left out of the envelope", exc_info=True)
        return None
    return render(plan) if plan is not None else ""
