"""How a session runs one turn and stops one: hold and resume, interrupts, steering at a boundary.

Every way a turn can end is reported here as `turn.completed`, `turn.failed` or an interruption, and
the end-of-turn hooks run after each. `Session` inherits this; its driver decides which turn runs next.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from vtcode.core.steering import unanswered_prompt
from vtcode.exec.process_group import kill_all_groups
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.events import SessionPaused, SessionResumed
from vtcode.protocol.messages import Message, MessageMeta, UserMessage
from vtcode.protocol.ops import UserInput
from vtcode.runtime import turn_end
from vtcode.runtime.hold import HoldReason
from vtcode.runtime.hooks import AfterToolBatch, TurnEnd
from vtcode.runtime.session_queries import SessionQueries
from vtcode.runtime.turn_spending import TurnSpending

if TYPE_CHECKING:
    from vtcode.exec.session import CommandSession

log = logging.getLogger(__name__)


class SessionTurns(SessionQueries):
    """Running, interrupting and holding turns; the state it uses is set by `Session.__init__`."""

    _turn_task: asyncio.Task[None] | None
    _closing: bool
    # Command sessions an interrupted turn was waiting on, ended before the interruption is reported.
    _stopping: list[CommandSession]
    _adding: int
    _had_input: bool

    def _put_hold(self, reason: HoldReason) -> None:
        if self._hold.put(reason):
            self._emitter.emit(SessionPaused(reason=reason, pending_intents=len(self._intents)))

    def _release(self) -> bool:
        if not self._hold.release():
            return False
        self._emitter.emit(SessionResumed())
        self._intents.changed.set()
        return True

    def _interrupt(self, *, force: bool) -> None:
        task = self._turn_task
        if force:
            # A second interrupt does not wait for graceful termination of command groups.
            kill_all_groups()
        if task is not None and not task.done():
            # Like Ctrl-C on a foreground job: the commands the turn was waiting on end with it;
            # sessions nobody waited on (a server started earlier) keep running.
            sessions = self._wiring.toolset.sessions
            self._stopping = sessions.waited_on() if sessions is not None else []
            task.cancel()

    async def _turn(self, item: UserInput | None) -> None:
        """One turn, with every way it can end reported as `turn.completed` or `turn.failed`.

        `item` None answers the prompt a resumed history ends with.
        """
        runner = self._wiring.runner
        final_text: str | None = None
        error: BaseException | None = None
        spend = TurnSpending(self._wiring.usage)
        try:
            if item is None:
                outcome = await runner.run(None)
            else:
                outcome = await runner.run(item.text, intent_id=item.intent_id, images=item.images)
            final_text = outcome.final_text
            # Intents accepted until now count: a headless run applies them before it ends.
            self._intents.refresh()
            self._intents.requeue_steering()
            pending = len(self._intents)
            self._emitter.emit(spend.completed(outcome.usage, pending))
            if self._options.until_idle and not pending and self._had_input and not self._adding:
                self._closing = True
        except asyncio.CancelledError as exc:
            # Only an interrupt or shutdown cancels a turn; the history is already consistent.
            error = exc
            current = asyncio.current_task()
            if current is not None:
                current.uncancel()
            await self._end_waited_commands()
            self._note_interruption()
            self._emitter.emit(spend.failed(turn_end.interrupted()))
            if self._intents and not self._closing and not self._options.until_idle:
                # Stop beats a follow-up typed before it: nothing waiting starts by itself now.
                self._put_hold("interrupted")
        except Exception as exc:  # the turn's last line of defence: the session stays usable
            if not isinstance(exc, VtcodeError):
                log.debug("turn failed", exc_info=True)
            error = exc
            self._emitter.emit(spend.failed(turn_end.failed(exc)))
        if error is not None:
            self._intents.requeue_steering()
            if self._options.until_idle:
                # A headless run stops at a failure; what is pending waits for `--resume`.
                self._closing = True
        turn = self._wiring.state.turns
        for hook in self._wiring.hooks.end_of_turn:
            try:
                await hook(TurnEnd(turn=turn, final_text=final_text, error=error))
            except Exception:
                log.warning("an end-of-turn hook failed", exc_info=True)
        self._emitter.end_turn()

    def _note_interruption(self) -> None:
        """After an interrupt before any reply, say so in the history (`turn_end.INTERRUPTION_NOTE`)."""
        runner = self._wiring.runner
        if unanswered_prompt(runner.state.messages) is None:
            return
        try:
            runner.commit([turn_end.interruption_note(runner.state.turns, runner.clock())])
        except VtcodeError as exc:
            log.warning("the interruption was not recorded: %s", exc.user_text())

    async def _end_waited_commands(self) -> None:
        stopping, self._stopping = self._stopping, []
        sessions = self._wiring.toolset.sessions
        if sessions is not None:
            await asyncio.gather(*(sessions.discard(s) for s in stopping), return_exceptions=True)

    async def _deliver_steering(self, batch: AfterToolBatch) -> Sequence[Message]:
        """Steering input waiting for this boundary, as user messages for the next request.

        A paused session's turn waits here: after its tool batch, before its next model request.
        """
        await self._hold.wait()
        self._intents.refresh()
        return [
            UserMessage(
                item.text,
                meta=MessageMeta(
                    intent_id=item.intent_id, created_at=self._wiring.runner.clock(), turn=batch.turn
                ),
                images=item.images,
            )
            for item in self._intents.take_steering()
        ]
