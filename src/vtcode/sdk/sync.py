"""`SyncSession`: the SDK for code that is not async, on an event loop of its own in a private thread.

It never runs anything on the caller's loop, so it also works where a loop is already running (a
Jupyter cell, a callback of an async framework), where `asyncio.run` would fail.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Coroutine, Iterator, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from vtcode.protocol.errors import UsageError
from vtcode.protocol.events import Event, ThreadCompacted
from vtcode.sdk.options import Options
from vtcode.sdk.output import OutputType
from vtcode.sdk.permission import Decision
from vtcode.sdk.session import Session
from vtcode.sdk.turn import TurnHandle, TurnResult

if TYPE_CHECKING:
    from vtcode.protocol.usage import UsageReport
    from vtcode.store.paused_calls import PausedCall as PendingApproval

T = TypeVar("T")


class _LoopThread:
    """An event loop running in a daemon thread until `stop`."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="vtcode-sdk-loop", daemon=True)
        self._thread.start()

    def call(self, job: Coroutine[Any, Any, T]) -> T:
        """Run `job` on the loop and wait for its result in the calling thread."""
        if self.loop.is_closed():
            job.close()
            raise UsageError(
                "the session is closed", hint="open a new one, or SyncSession.resume(id) to continue this one"
            )
        return asyncio.run_coroutine_threadsafe(job, self.loop).result()

    def stop(self) -> None:
        """Stop the loop, wait for its thread, close it."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.close()


class SyncTurn(Generic[T]):
    """A running turn for synchronous code: `events()`, `result()`, `steer()`, `interrupt()`, `approve()`."""

    def __init__(self, handle: TurnHandle[T], runner: _LoopThread) -> None:
        self._handle = handle
        self._runner = runner

    def events(self) -> Iterator[Event]:
        """The turn's events in order, until `turn.completed` or `turn.failed`."""
        stream: AsyncIterator[Event] = self._handle.events()
        while True:
            try:
                yield self._runner.call(_next(stream))
            except StopAsyncIteration:
                return

    def result(self) -> TurnResult[T]:
        """Wait for the turn to end."""
        return self._runner.call(self._handle.result())

    def steer(self, text: str) -> None:
        """More input for the running turn, after its current tool batch."""
        self._runner.call(self._handle.steer(text))

    def interrupt(self) -> None:
        """Stop the turn and the commands it waits on."""
        self._runner.call(self._handle.interrupt())

    def approve(self, request_id: str, decision: Decision) -> None:
        """Answer an `approval.requested` event."""
        self._runner.call(self._handle.approve(request_id, decision))


class SyncSession:
    """`Session` for synchronous code: `with SyncSession.open(options) as s: s.run(prompt)`."""

    def __init__(self, session: Session, runner: _LoopThread) -> None:
        self._session = session
        self._runner = runner
        self._closed = False

    @classmethod
    def open(cls, options: Options) -> SyncSession:
        """Open a new session on a loop thread of its own."""
        return cls._open(Session.open(options))

    @classmethod
    def resume(cls, session_id: str, options: Options) -> SyncSession:
        """Open the stored session `session_id` again."""
        return cls._open(Session.resume(session_id, options))

    @classmethod
    def fork(cls, session_id: str, options: Options) -> SyncSession:
        """Open a new session starting from a copy of stored session `session_id`'s history."""
        return cls._open(Session.fork(session_id, options))

    @classmethod
    def _open(cls, opening: Coroutine[Any, Any, Session]) -> SyncSession:
        runner = _LoopThread()
        try:
            session = runner.call(opening)
        except BaseException:
            runner.stop()
            raise
        return cls(session, runner)

    @property
    def id(self) -> str:
        """The session id."""
        return self._session.id

    def usage(self) -> UsageReport:
        """What the session's model calls used and cost (`Session.usage`)."""
        return self._runner.call(self._session.usage())

    @property
    def pending_approvals(self) -> tuple[PendingApproval, ...]:
        """Calls a paused turn left waiting for `approve()` (`approval="pause"`)."""
        return self._session.pending_approvals

    def approve(self, request_id: str, decision: Decision) -> None:
        """Decide a paused call, durably; the next turn runs it at most once."""
        self._runner.call(self._session.approve(request_id, decision))

    @overload
    def run(self, prompt: str) -> TurnResult[Any]: ...
    @overload
    def run(self, prompt: str, *, output_type: type[T]) -> TurnResult[T]: ...
    @overload
    def run(self, prompt: str, *, output_type: Mapping[str, Any]) -> TurnResult[Any]: ...

    def run(self, prompt: str, *, output_type: OutputType | None = None) -> TurnResult[Any]:
        """Run a turn to its end (`output_type`: this turn's answer type, as `Session.run`)."""
        if output_type is None:
            return self._runner.call(self._session.run(prompt))
        return self._runner.call(self._session.run(prompt, output_type=output_type))

    def start(self, prompt: str, *, output_type: OutputType | None = None) -> SyncTurn[Any]:
        """Start a turn and return its handle."""
        if output_type is None:
            return SyncTurn(self._runner.call(self._session.start(prompt)), self._runner)
        return SyncTurn(self._runner.call(self._session.start(prompt, output_type=output_type)), self._runner)

    def compact(self) -> ThreadCompacted | None:
        """Compact the history now, between turns (as `Session.compact`: None when there was nothing to
        compact; `CompactionError` when the history was kept as it was)."""
        return self._runner.call(self._session.compact())

    def close(self) -> None:
        """Close the session and stop its loop thread; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            self._runner.call(self._session.close())
        finally:
            self._runner.stop()

    def __enter__(self) -> SyncSession:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


async def _next(stream: AsyncIterator[Event]) -> Event:
    return await anext(stream)
