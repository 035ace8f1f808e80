"""`vtcode.sdk.Session`: the runtime's `Session` in a program's own process, one turn at a time.

A front end like `vtcode exec` or the TUI: it submits operations and reads the event stream, adding no
behaviour of its own beyond answering approvals (`sdk.permission`). One reader task per session routes
the stream to the running turn's handle; events between turns (`thread.started`, notices) open the next
turn's stream, so a program reads the same sequence `vtcode exec --json` prints. No module state: any
number of sessions may run in one process and one loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar, overload

from vtcode.protocol.errors import QueueFullError, UsageError
from vtcode.protocol.events import ApprovalRequested, Event, ThreadCompacted, TurnFailed
from vtcode.protocol.ops import Compact, Op, UserInput
from vtcode.sdk import pause
from vtcode.sdk.compaction import CompactionError, Waiting
from vtcode.sdk.options import Options, runtime_options
from vtcode.sdk.output import OutputType, output, turn_schema
from vtcode.sdk.permission import NO_ANSWER, Decision, consult
from vtcode.sdk.transport import Transport, TransportError, open_transport
from vtcode.sdk.turn import TurnHandle, TurnResult

if TYPE_CHECKING:
    from vtcode.protocol.usage import UsageReport
    from vtcode.runtime.session import Session as RuntimeSession
    from vtcode.store.paused_calls import PausedCall as PendingApproval

T = TypeVar("T")
_CLOSED = "the session was closed before the turn ended"
# The events `_route` decides about (a failure's cause, who answers an approval).
_ROUTED = (TurnFailed, ApprovalRequested)


class Session:
    """A conversation held by a program: `await Session.open(options)`, then `run()` or `start()` turns."""

    def __init__(self, runtime: Transport, options: Options) -> None:
        # The runtime behind its transport (`Options.transport`): in this process or a `vtcode acp` child.
        self._runtime = runtime
        self._options = options
        self._turn: TurnHandle[Any] | None = None
        # Run by `run()`: nobody holds the handle to approve, so what the callback does not answer is refused.
        self._unattended = False
        self._between: list[Event] = []
        self._answering: set[asyncio.Task[None]] = set()
        # Calls a paused turn left waiting for approval (`sdk.pause`); decided ones run at the next turn.
        self._paused = pause.attach(runtime)
        # The exception behind the next `turn.failed` (`_note_failure`), for `TurnResult.raise_for_status`.
        self._ended_by: BaseException | None = None
        # A `compact()` waiting for its outcome (`sdk.compaction`).
        self._compaction: Waiting | None = None
        # Set by `close()`: later turns and steers are refused instead of waiting forever or vanishing.
        self._closed = False
        self._reader = asyncio.create_task(self._read(), name=f"vtcode-sdk-{runtime.id}")

    @classmethod
    async def open(cls, options: Options) -> Session:
        """Open a new session (raises `vtcode.protocol.errors.VtcodeError` for a bad setup)."""
        return await cls._open(options, resume=None)

    @classmethod
    async def resume(cls, session_id: str, options: Options) -> Session:
        """Open the stored session `session_id` again, its history as the model last saw it."""
        return await cls._open(options, resume=session_id)

    @classmethod
    async def fork(cls, session_id: str, options: Options) -> Session:
        """Open a new session whose history starts as a copy of stored session `session_id`'s.

        The original is left untouched: resuming it later continues its own history.
        """
        from vtcode.sdk.fork import fork_history

        home = runtime_options(options, session_id=lambda: "").home
        return await cls._open(options, resume=await fork_history(home, session_id))

    @classmethod
    async def _open(cls, options: Options, *, resume: str | None) -> Session:
        transport = await open_transport(options, resume=resume)
        session = cls(transport, options)
        transport.on_failure(session._note_failure)
        return session

    @property
    def id(self) -> str:
        """The session id (`Session.resume` takes it, as `vtcode exec --resume` does)."""
        return self._runtime.id

    @property
    def runtime(self) -> RuntimeSession:
        """The runtime session underneath, for what the SDK does not wrap yet (in-process only)."""
        from vtcode.sdk.transport.in_process import InProcess

        if not isinstance(self._runtime, InProcess):
            raise UsageError("a subprocess session's runtime is in its child process")
        return self._runtime.runtime

    async def usage(self) -> UsageReport:
        """What the session's model calls used and cost, by source (main, subagents, compaction) and
        model, earlier runs of a resumed session included (as `vtcode usage --json`)."""
        self._refuse_when_closed()
        return await self._runtime.usage()

    @property
    def pending_approvals(self) -> tuple[PendingApproval, ...]:
        """Calls a paused turn left waiting for `approve()` (`approval="pause"`), also after a resume."""
        return pause.undecided(self._paused)

    async def approve(self, request_id: str, decision: Decision) -> None:
        """Decide a paused call, durably; the next turn runs it (at most once) before its prompt."""
        await asyncio.to_thread(pause.decide, self._paused, request_id, decision)

    @overload
    async def start(self, prompt: str) -> TurnHandle[Any]: ...
    @overload
    async def start(self, prompt: str, *, output_type: type[T]) -> TurnHandle[T]: ...
    @overload
    async def start(self, prompt: str, *, output_type: Mapping[str, Any]) -> TurnHandle[Any]: ...

    async def start(self, prompt: str, *, output_type: OutputType | None = None) -> TurnHandle[Any]:
        """Start a turn and return its handle at once (raises `QueueFullError` while a turn runs).

        `output_type` holds this turn's answer to a type (or JSON Schema) instead of the session's.
        """
        return await self._start(prompt, unattended=False, output_type=output_type)

    @overload
    async def run(self, prompt: str) -> TurnResult[Any]: ...
    @overload
    async def run(self, prompt: str, *, output_type: type[T]) -> TurnResult[T]: ...
    @overload
    async def run(self, prompt: str, *, output_type: Mapping[str, Any]) -> TurnResult[Any]: ...

    async def run(self, prompt: str, *, output_type: OutputType | None = None) -> TurnResult[Any]:
        """Run a turn to its end: `start()` and wait for the result, approvals left open refused.

        Cancelling the task that awaits it interrupts the turn (`TurnHandle.result`).
        """
        handle = await self._start(prompt, unattended=True, output_type=output_type)
        return await handle.result()

    async def steer(self, text: str) -> None:
        """Input for the running turn after its current tool batch (`UsageError` when none runs)."""
        self._refuse_when_closed()
        if self._turn is None:
            raise UsageError("no turn is running to steer", hint="start one with run() or start()")
        await self._runtime.submit(UserInput(text, mode="steer"))

    async def compact(self) -> ThreadCompacted | None:
        """Compact the history now, between turns, and return the `thread.compacted` event.

        Returns None when there was nothing to compact (the history already fits in the verbatim tail).
        Raises `CompactionError` when the history was kept as it was: the compaction failed, was
        interrupted, or a `pre_compact` hook blocked it; `UsageError` while a turn runs (the runtime
        compacts a long turn by itself at its boundaries). The outcome event also opens the next
        turn's `events()`, as `vtcode exec --json` prints it.
        """
        if self._turn is not None:
            raise UsageError(
                "a turn is running; compact() runs between turns", hint="await its result() first"
            )
        if self._compaction is not None:
            raise UsageError("a compaction is already running in this session")
        if self._reader.done():
            raise UsageError("the session is closed")
        waiting = self._compaction = Waiting()
        try:
            await self._runtime.submit(Compact())
            return await waiting.outcome()
        finally:
            self._compaction = None

    async def close(self) -> None:
        """Interrupt a running turn, end its commands and close the session; safe to call twice."""
        self._closed = True
        await self._runtime.aclose()
        await self._reader
        for task in list(self._answering):
            task.cancel()
        await asyncio.gather(*self._answering, return_exceptions=True)

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def _start(
        self, prompt: str, *, unattended: bool, output_type: OutputType | None = None
    ) -> TurnHandle[Any]:
        # A closed session's events end: a turn started now would wait for its end forever.
        self._refuse_when_closed()
        if self.pending_approvals:
            raise UsageError(
                f"{len(self.pending_approvals)} paused call(s) wait for a decision",
                hint="answer each of Session.pending_approvals with approve() first",
            )
        if self._turn is not None:
            raise QueueFullError(
                "a turn is already running in this session",
                hint="await its result() first, or steer() it",
            )
        wanted = output_type if output_type is not None else self._options.output_type
        expected = output(wanted) if wanted is not None else None
        # The session's own type stays for turns that do not name one.
        self._runtime.set_output_schema(turn_schema(expected))
        handle: TurnHandle[Any] = TurnHandle(self.id, self._submit, expected.decode if expected else None)
        self._turn, self._unattended = handle, unattended
        for event in self._between:
            handle.feed(event)
        self._between.clear()
        try:
            await self._runtime.submit(UserInput(prompt))
        except BaseException:
            self._turn = None
            raise
        return handle

    def _refuse_when_closed(self) -> None:
        # Closed by the program; a transport that died says so itself (`TransportError`) on submit.
        if self._closed:
            raise UsageError(
                "the session is closed", hint="open a new one, or Session.resume(id) to continue this one"
            )

    async def _submit(self, op: Op) -> None:
        await self._runtime.submit(op)

    async def _read(self) -> None:
        try:
            async for event in self._runtime.events():
                if self._compaction is not None:
                    self._compaction.take(event)
                handle = self._turn
                # Most events only go to the running turn: no routing decision to make for them.
                if handle is not None and not isinstance(event, _ROUTED):
                    if handle.feed(event):
                        self._turn = None
                else:
                    self._route(event)
        except TransportError as exc:
            if self._compaction is not None:
                self._compaction.abandon(exc)
            if self._turn is not None:
                self._turn.break_off(exc)
                self._turn = None
        finally:
            if self._compaction is not None:
                self._compaction.abandon(
                    CompactionError("the session was closed before the compaction ended")
                )
            if self._turn is not None:
                self._turn.abandon(_CLOSED)
                self._turn = None

    def _note_failure(self, error: BaseException | None) -> None:
        self._ended_by = error

    def _route(self, event: Event) -> None:
        handle = self._turn
        if handle is None:
            self._between.append(event)
            return
        if isinstance(event, TurnFailed):
            handle.cause, self._ended_by = self._ended_by, None
        if isinstance(event, ApprovalRequested):
            if self._options.permission is not None:
                # The callback answers; the event is not shown, so nobody answers twice.
                self._answer(event)
                return
            if self._options.approval == "pause":
                self._spawn(self._submit(pause.pause(self._paused, handle, event)))
            elif self._unattended:
                self._spawn(handle.deny_unanswered(event.request_id, NO_ANSWER))
        if handle.feed(event):
            self._turn = None

    def _answer(self, request: ApprovalRequested) -> None:
        callback = self._options.permission
        assert callback is not None

        async def decide() -> None:
            await self._runtime.submit(await consult(callback, request))

        self._spawn(decide())

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job)
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)
