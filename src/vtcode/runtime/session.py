"""One conversation as a front end sees it: operations in (`submit`), a complete event stream out.

The session owns every asyncio task of a conversation: the turn being run, the queue of user input
waiting for it, approvals waiting for an answer, interrupts, the mapping of failures to `turn.failed`,
and the cleanup of command sessions and their process groups. `vtcode exec`, the TUI and editor
protocol servers are front ends over this one API (DESIGN.md section 2). What front ends read is in
`session_queries`; how a turn runs, ends and is interrupted or held is in `session_turns`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import TYPE_CHECKING

from vtcode.core.approvals import Grant
from vtcode.exec.process_group import kill_all_groups
from vtcode.protocol.errors import QueueFullError, VtcodeError
from vtcode.protocol.events import Event, ThreadCompacted
from vtcode.protocol.messages import ImagePart
from vtcode.protocol.ops import (
    ApprovalAnswer,
    CancelIntent,
    Compact,
    InputMode,
    Interrupt,
    Op,
    Pause,
    Resume,
    RevokeGrant,
    Shutdown,
    UserInput,
)
from vtcode.providers.base import ModelClient
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.hold import Hold
from vtcode.runtime.intent_queue import IntentQueue
from vtcode.runtime.manual_compaction import compact_between_turns
from vtcode.runtime.recorder import persisted
from vtcode.runtime.run_summary import RunSummary
from vtcode.runtime.session_turns import SessionTurns
from vtcode.runtime.status import ContextMeter
from vtcode.runtime.switch import Switch, check
from vtcode.runtime.switch import apply as apply_switch
from vtcode.runtime.wiring import SessionOptions, Wiring, wire
from vtcode.store.event_log import events_size
from vtcode.store.intents import IntentStore

if TYPE_CHECKING:
    from vtcode.exec.session import CommandSession
    from vtcode.runtime.mcp_join import McpJoin
    from vtcode.runtime.session_rewind import SessionRewinds

log = logging.getLogger(__name__)

# How often a headless run's own prompt looks for room in a full steering queue.
INPUT_ROOM_POLL_SECONDS = 0.1


def _release_unused(built: asyncio.Future[Wiring]) -> None:
    if not built.cancelled() and built.exception() is None:
        built.result().history.close()


class Session(SessionTurns):
    """A conversation: `open`, then `submit` operations and read `events` until the stream ends."""

    def __init__(
        self,
        wiring: Wiring,
        emitter: Emitter,
        options: SessionOptions,
        *,
        new_id: Callable[[], str],
        clock: Callable[[], float],
    ) -> None:
        self._wiring = wiring
        self._emitter = emitter
        self._options = options
        # None ends the stream.
        self._queue: asyncio.Queue[Event | None] = asyncio.Queue()
        self._intents = IntentQueue(emitter, self._intent_store, new_id=new_id, clock=clock)
        self._turn_task: asyncio.Task[None] | None = None
        self._busy = False
        # `/compact` between turns: the driver runs it before the next pending input.
        self._compact_requested = False
        self._compacting = False
        self._closing = False
        self._closed = asyncio.Event()
        self._consumed = False
        self._stopping: list[CommandSession] = []
        self._mcp: McpJoin | None = None
        self._switch: Switch | None = None
        self._hold = Hold()
        self._past_events_bytes = 0
        self._context = ContextMeter(resumed=bool(options.resume or options.continue_last))
        # A headless run ends when nothing is pending after a turn, but not before the front end's own
        # input is in: a resumed session's first turns may end while that input is still being stored.
        self._adding = 0
        self._had_input = False
        # A resumed history ending with an unanswered prompt: its turn runs before any other input.
        self._unanswered = wiring.unanswered is not None
        emitter.subscribe(self._on_event)
        self._summary = RunSummary()
        emitter.subscribe(self._summary)
        wiring.hooks.after_tool_batch.append(self._deliver_steering)
        wiring.runner.on_applied = self._intents.applied
        if wiring.unanswered is not None:
            emitter.inform(
                "the last run stopped before the model answered "
                f"{_preview(wiring.unanswered.content)}; answering it first"
            )
        self._intents.restore(wiring.recovered)
        if wiring.held:
            self._put_hold("interrupted")
        self._rewind_parts = (clock, new_id)
        self._watcher = asyncio.create_task(self._intents.watch(), name="vtcode-intents")
        self._driver = asyncio.create_task(self._drive(), name="vtcode-session")

    @functools.cached_property
    def rewinds(self) -> SessionRewinds:
        """`/rewind` and `/redo` for the TUI and ACP, built (and imported) at first use."""
        from vtcode.runtime.session_rewind import session_rewinds

        clock, new_id = self._rewind_parts
        return session_rewinds(
            self._wiring, self._emitter, busy=lambda: self._busy, clock=clock, new_id=new_id
        )

    @classmethod
    async def open(
        cls,
        options: SessionOptions,
        *,
        client: ModelClient | None = None,
        clock: Callable[[], float] = time.time,
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
    ) -> Session:
        """Build a session; the blocking work (store, provider probe, instruction files) runs off the loop.

        Raises `VtcodeError` for what the user must fix (unknown session, bad provider setup).
        """
        emitter = Emitter(clock=clock)
        emitter.hold()
        built = asyncio.ensure_future(
            asyncio.to_thread(wire, options, emitter, client=client, clock=clock, new_id=new_id)
        )
        try:
            wiring = await asyncio.shield(built)
        except asyncio.CancelledError:
            # The thread cannot be stopped: what it builds is dropped, and a resumed session's files
            # (claimed while building) are given back, or no later resume in this process could write.
            built.add_done_callback(_release_unused)
            raise
        session = cls(wiring, emitter, options, new_id=new_id, clock=clock)
        try:
            handle = wiring.history.handle
            # Before this run's first event is stored: what is in the log now is the past.
            session._past_events_bytes = events_size(handle.events_path) if handle is not None else 0
            if wiring.mcp.servers:
                session._start_mcp()
            emitter.release()
            if wiring.lifecycle is not None:
                resumed = options.resume is not None or options.continue_last
                await wiring.lifecycle.start(wiring.runner, resumed=resumed)
        except BaseException:
            # The caller never gets this session (SessionStart hooks failed, or the open was cancelled
            # while they ran): close it here, or its tasks, servers and claimed files outlive it.
            await session.aclose()
            raise
        return session

    async def withdraw(self, intent_id: str) -> UserInput | None:
        """Take back input that was not delivered yet (to remove or edit it); None when it is gone.

        Also removed from the session envelope, so neither this process nor a later resume delivers it.
        """
        item = next((p for p in self._intents.items if p.intent_id == intent_id), None)
        if item is None or not await self._intents.cancel(intent_id):
            return None
        return item

    async def submit(self, op: Op) -> None:
        """Take one operation; its effects are reported as events."""
        if self._closing:
            if not isinstance(op, Shutdown):
                self._emitter.warn("the session is shutting down")
            return
        match op:
            case UserInput(text=text, mode=mode, intent_id=intent_id, images=images):
                if self._hold.reason == "interrupted":
                    # The user goes on after Esc: what the interrupt held runs first, in order.
                    self._release()
                self._adding += 1
                try:
                    await self._add_input(text, mode, intent_id, images)
                finally:
                    self._adding -= 1
                    self._had_input = True
            case CancelIntent(intent_id=intent_id):
                if not await self._intents.cancel(intent_id):
                    self._emitter.warn(f"intent {intent_id} is not pending (already delivered, or unknown)")
            case Interrupt(force=force):
                self._interrupt(force=force)
            case ApprovalAnswer():
                if not self._wiring.approvals.answer(op):
                    self._emitter.warn(f"no approval request {op.request_id!r} is waiting for an answer")
            case Pause():
                self._put_hold("requested")
            case Resume():
                if not self._release():
                    self._emitter.inform("the session is not paused")
            case Compact():
                self._compact()
            case RevokeGrant(kind=kind, value=value):
                grant = Grant(kind, value)
                if self._wiring.dispatcher.revoke(grant):
                    self._emitter.inform(f"no longer allowed for this session: {grant.describe()}")
                else:
                    self._emitter.warn(f"no such session grant: {grant.describe()}")
            case Shutdown():
                await self.aclose()

    async def _add_input(
        self, text: str, mode: InputMode, intent_id: str | None, images: tuple[ImagePart, ...]
    ) -> None:
        """Queue input; a headless run's own prompt waits for room in a full queue instead of failing.

        The pending intents run first, and each leaves the queue as its turn applies it; failing here
        instead would end the run after it applied one of them, never answered (`exec --continue`).
        """
        while True:
            waits = self._busy or bool(self._intents) or self._unanswered or self._hold.on
            try:
                await self._intents.add(text, mode, intent_id, waits=waits, images=images)
                return
            except QueueFullError:
                if not self._options.until_idle or self._closing:
                    raise
            await asyncio.sleep(INPUT_ROOM_POLL_SECONDS)

    async def events(self) -> AsyncIterator[Event]:
        """The event stream, from `thread.started` until the session is shut down (one reader)."""
        if self._consumed:
            raise RuntimeError("a session's events have one reader")
        self._consumed = True
        while True:
            event = await self._queue.get()
            if event is None:
                return
            yield event

    async def aclose(self) -> None:
        """Interrupt a running turn, end command sessions and close the stream; safe to call twice."""
        self._closing = True
        self._interrupt(force=False)
        self._intents.changed.set()
        await asyncio.gather(self._driver, return_exceptions=True)
        await self._closed.wait()

    def switch(self, *, model: str | None = None, profile: str | None = None) -> None:
        """Use another model or prompt profile from the next turn on (raises `ConfigError` for a bad name).

        Idle, the switch applies at once; during a turn, when it ends. The static prompt is recomposed and
        the one-time prompt-cache miss is announced; a model switch compacts the history when
        `[agent.harness] compact_on_model_switch` is on.
        """
        self._switch = check(Switch(model=model, profile=profile))
        if not self._busy:
            self._apply_switch()

    # -- inside ---------------------------------------------------------------------------------------

    def _start_mcp(self) -> None:
        """Start the configured MCP servers in the background; their tools join before a model request."""
        from vtcode.runtime.mcp_join import start_mcp

        self._mcp = start_mcp(self._wiring, self._emitter)

    def _apply_switch(self) -> None:
        wanted, self._switch = self._switch, None
        if wanted is None:
            return
        before = self._wiring.model
        for message in apply_switch(self._wiring, wanted):
            self._emitter.inform(message)
        if (
            self._wiring.model != before
            and self._wiring.options.settings.agent.harness.compact_on_model_switch
        ):
            self._compact()

    def _compact(self) -> None:
        if self._busy:
            # Never inside a tool batch or a stream: at the running turn's next boundary.
            self._wiring.compactor.request_manual()
            self._emitter.inform("the history is compacted before the running turn's next request")
        else:
            self._compact_requested = True
            self._intents.changed.set()

    def _on_event(self, event: Event) -> None:
        if isinstance(event, ThreadCompacted):
            self._context.compacted(event.after_tokens, self._wiring.state.last_usage)
        if persisted(event):
            try:
                self._wiring.history.record(event)
            except VtcodeError as exc:
                # The event log is a record, not state: losing a line must not stop the turn.
                log.warning("event not recorded: %s", exc.user_text())
        self._queue.put_nowait(event)

    def _intent_store(self) -> IntentStore | None:
        handle = self._wiring.history.handle
        return IntentStore(handle.dir) if handle is not None else None

    async def _drive(self) -> None:
        """Run pending input one turn at a time until the session closes, then clean up."""
        try:
            while not self._closing:
                job: Coroutine[None, None, None] | None = None
                if self._compact_requested:
                    self._compact_requested = False
                    job = self._manual_compaction()
                elif self._hold.on:
                    pass
                elif self._unanswered:
                    self._unanswered = False
                    job = self._turn(None)
                elif (item := self._intents.pop()) is not None:
                    job = self._turn(item)
                if job is None:
                    self._intents.changed.clear()
                    await self._intents.changed.wait()
                    continue
                self._busy = True
                try:
                    self._turn_task = asyncio.create_task(job, name="vtcode-turn")
                    await asyncio.wait({self._turn_task})
                finally:
                    self._turn_task = None
                    self._busy = False
                    self._apply_switch()
                if self._wiring.compactor.take_manual():
                    # `/compact` came during a turn that then made no further request: run it now.
                    self._compact_requested = True
        finally:
            await self._cleanup()

    async def _cleanup(self) -> None:
        self._closing = True
        self._watcher.cancel()
        lifecycle = self._wiring.lifecycle
        try:
            if lifecycle is not None:
                await lifecycle.end(headless=self._options.headless)
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
            if self._mcp is not None:
                await self._mcp.aclose()
            await self._wiring.toolset.aclose()
            if not self._options.subagent:
                await self._wiring.client.aclose()
        finally:
            checkpoints = self._wiring.dispatcher.checkpoints
            if checkpoints is not None:
                await checkpoints.settle()
            # The last resort for groups a failed cleanup left behind (every group of the process: never
            # from a subagent, whose parent's commands may still run).
            if not self._options.subagent:
                kill_all_groups()
            usage = self._wiring.usage
            if usage is not None:
                usage.save()
            if self._options.until_idle:
                if usage is not None:
                    self._emitter.emit(usage.summary())
                self._emitter.emit(self._summary.completed(self._wiring.thread_id))
            self._wiring.history.close()
            self._queue.put_nowait(None)
            self._closed.set()

    async def _manual_compaction(self) -> None:
        """`/compact` between turns (`Session.compacting` while it runs)."""
        self._compacting = True
        try:
            await compact_between_turns(self._wiring, self._emitter)
        finally:
            self._compacting = False


def _preview(text: str, width: int = 60) -> str:
    line = " ".join(text.split())
    return repr(line if len(line) <= width else line[: width - 1] + "…")
