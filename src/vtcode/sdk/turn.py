"""One turn as a program holds it: its events as they come, its result when it ends, and its controls.

The events are the `vtcode exec --json` event types (`vtcode.protocol.events`), one definition for both.
A handle's queue is fed by the session's reader task, never by a task the iterator owns, so breaking
out of `events()` (from any task) neither cancels the turn nor loses the result.

Feeding is on every event's path, so it only keeps the event (and the completed items for the result);
the parsed JSON fields (`protocol.parsed_fields`) are added as the `events()` reader reads them and as
the result is built, each item parsed once (`run()` has no reader: only its result's items are parsed).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import msgspec

from vtcode.protocol.events import (
    AgentMessageItem,
    Event,
    Item,
    ItemCompleted,
    TurnCompleted,
    TurnFailed,
)
from vtcode.protocol.messages import Usage
from vtcode.protocol.ops import ApprovalAnswer, Interrupt, Op, UserInput
from vtcode.protocol.parsed_fields import with_parsed_item, with_parsed_json
from vtcode.sdk.permission import Decision, answer

if TYPE_CHECKING:
    from vtcode.store.paused_calls import PausedCall as PendingApproval

# "paused": with `approval="pause"`, a call waits for approval (`TurnResult.pending_approvals`).
TurnStatus = Literal["completed", "failed", "interrupted", "paused"]
T = TypeVar("T")
# How long a cancelled wait for a turn's result waits for the interrupted turn to end before re-raising.
CANCEL_GRACE_SECONDS = 10.0


@dataclass(frozen=True)
class TurnResult(Generic[T]):
    """How a turn ended: its status, the answer's text, token usage and cost, and the completed items.

    `error` is the `turn.failed` event of a turn that did not complete (its `kind`, `message`, `hint`
    and `exit_code` as `vtcode exec` reports them). `usage` counts the calls of the turn and of its
    subagents, also when it failed or was interrupted; `cost_usd` is what every call the turn made
    cost at list prices (compaction included), None when a model's price is unknown.
    """

    session_id: str
    status: TurnStatus
    final_text: str
    usage: Usage
    items: tuple[Item, ...]
    error: TurnFailed | None = None
    cost_usd: float | None = None
    # With `output_type=T`: the final answer as a `T`. None when the turn did not complete (check
    # `status`, or call `raise_for_status()` first).
    output: T = None  # type: ignore[assignment]
    # The calls that wait for `Session.approve()` (status "paused").
    pending_approvals: tuple[PendingApproval, ...] = ()
    # The exception that ended a failed turn, as the runtime raised it (a provider's status kept).
    cause: BaseException | None = field(default=None, compare=False, repr=False)

    def raise_for_status(self) -> TurnResult[T]:
        """This result when the turn completed; else the error its exit code stands for (`sdk.errors`)."""
        if self.error is None:
            return self
        from vtcode.protocol.errors import InterruptedByUser, VtcodeError
        from vtcode.sdk.errors import failure_error

        if isinstance(self.cause, VtcodeError) and not isinstance(self.cause, InterruptedByUser):
            raise self.cause
        raise failure_error(self.error)


class TurnHandle(Generic[T]):
    """A running turn: read `events()`, await `result()`, or `steer()`, `interrupt()`, `approve()` it."""

    def __init__(
        self,
        session_id: str,
        submit: Callable[[Op], Awaitable[None]],
        decode: Callable[[str], T] | None = None,
    ) -> None:
        self.session_id = session_id
        self._submit = submit
        self._decode = decode
        # Not an `asyncio.Queue`: one reader and one feeder in one loop need only a deque and a wake-up.
        self._events: deque[Event | None] = deque()
        self._wakeup: asyncio.Future[None] | None = None
        self._loop = asyncio.get_running_loop()
        self._result: asyncio.Future[TurnResult[T]] = self._loop.create_future()
        # Completed items parsed (for the reader or the result), by the id of the item as fed (the fed
        # items stay in `_items`, so no id is reused).
        self._parsed: dict[int, Item] = {}
        # Set by the session just before `turn.failed` arrives: the exception behind it.
        self.cause: BaseException | None = None
        self._items: list[Item] = []
        self._reading = False
        self._paused: list[PendingApproval] = []

    async def events(self) -> AsyncGenerator[Event, None]:
        """The turn's events, in order, ending with `turn.completed` or `turn.failed` (one reader)."""
        if self._reading:
            raise RuntimeError("a turn's events have one reader")
        self._reading = True
        queue = self._events
        while True:
            while not queue:
                self._wakeup = wakeup = self._loop.create_future()
                await wakeup
            event = queue.popleft()
            if event is None:
                return
            # The same parsed fields as `exec --json` lines (the SDK's events are those lines).
            if isinstance(event, ItemCompleted) and event.item is not None:
                item = self._parsed_item(event.item)
                yield event if item is event.item else msgspec.structs.replace(event, item=item)
            else:
                yield with_parsed_json(event)

    async def result(self) -> TurnResult[T]:
        """Wait for the turn to end; a failed or interrupted turn is a result, not an exception.

        Cancelling the task that awaits it interrupts the turn, waits (up to `CANCEL_GRACE_SECONDS`)
        for the turn to end and its commands to stop, then re-raises `CancelledError`.
        """
        try:
            # The shield's extra loop iteration before `run()` returns lets the runtime finish winding
            # the turn down, so a prompt sent next starts a turn instead of queueing as an intent.
            return await asyncio.shield(self._result)
        except asyncio.CancelledError:
            await self._stop()
            raise

    @property
    def done(self) -> bool:
        """Whether the turn has ended."""
        return self._result.done()

    async def steer(self, text: str) -> None:
        """Give the running turn more input, delivered after its current tool batch."""
        await self._submit(UserInput(text, mode="steer"))

    async def interrupt(self) -> None:
        """Stop the turn: its model request is cancelled and the commands it waits on are ended."""
        await self._submit(Interrupt())

    async def approve(self, request_id: str, decision: Decision) -> None:
        """Answer the `approval.requested` event `request_id` with `Allow(...)` or `Deny(...)`."""
        if any(p.request_id == request_id for p in self._paused):
            from vtcode.protocol.errors import UsageError

            raise UsageError(
                f"{request_id!r} was paused with the turn (approval='pause')",
                hint="decide it with Session.approve(); the next turn runs it",
            )
        await self._submit(answer(request_id, decision))

    async def deny_unanswered(self, request_id: str, reason: str) -> None:
        """Refuse a call nobody can approve (`run()` without a permission callback)."""
        await self._submit(ApprovalAnswer(request_id=request_id, decision="deny", reason=reason))

    async def _stop(self) -> None:
        """Interrupt and wait, bounded, for the end, shielded from further cancellation of the caller."""

        async def stop() -> None:
            await self.interrupt()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._result), CANCEL_GRACE_SECONDS)

        task = asyncio.ensure_future(stop())
        # A second cancellation must not leave the interrupt half done.
        while not task.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(task)

    # -- fed by the session's reader ------------------------------------------------------------------

    def feed(self, event: Event) -> bool:
        """Take one event of this turn; the last one (`turn.completed` / `turn.failed`) ends it.

        Returns whether the turn has ended.
        """
        self._events.append(event)
        if self._wakeup is not None:
            self._wake()
        if isinstance(event, ItemCompleted):
            if event.item is not None:
                self._items.append(event.item)
        elif isinstance(event, TurnCompleted):
            self._finish("completed", event.usage, None, event.cost_usd)
            return True
        elif isinstance(event, TurnFailed):
            status: TurnStatus = "interrupted" if event.kind == "interrupted" else "failed"
            self._finish(status, event.usage, event, event.cost_usd)
            return True
        return False

    def pause(self, call: PendingApproval) -> None:
        """A call of this turn waits for approval: the turn ends as "paused" (`approval="pause"`)."""
        self._paused.append(call)

    def abandon(self, reason: str) -> None:
        """The session ended before the turn did (closed, or its stream broke)."""
        if not self._result.done():
            self._finish("failed", Usage(), TurnFailed(kind="internal", message=reason))

    def break_off(self, error: BaseException) -> None:
        """The transport broke before the turn ended: `result()` raises `error`."""
        if not self._result.done():
            self._result.set_exception(error)
            self._put(None)

    def _finish(
        self, status: TurnStatus, usage: Usage, error: TurnFailed | None, cost_usd: float | None = None
    ) -> None:
        if self._result.done():
            return
        if self._paused and status == "interrupted":
            status = "paused"
        items = tuple(map(self._parsed_item, self._items))
        final_text = next((i.text for i in reversed(items) if isinstance(i, AgentMessageItem)), "")
        output: Any = None
        if status == "completed" and self._decode is not None:
            try:
                output = self._decode(final_text)
            except ValueError as exc:
                # The runtime checked the answer against the schema; the type can be stricter still.
                status = "failed"
                error = TurnFailed(kind="invalid_output", message=f"the answer is not the output type: {exc}")
        self._result.set_result(
            TurnResult(
                session_id=self.session_id,
                status=status,
                final_text=final_text,
                usage=usage,
                items=items,
                error=error,
                cost_usd=cost_usd,
                output=output,
                pending_approvals=tuple(self._paused),
                cause=self.cause if error is not None else None,
            )
        )
        self._put(None)

    def _parsed_item(self, item: Item) -> Item:
        parsed = self._parsed.get(id(item))
        if parsed is None:
            parsed = self._parsed[id(item)] = with_parsed_item(item)
        return parsed

    def _put(self, event: Event | None) -> None:
        self._events.append(event)
        self._wake()

    def _wake(self) -> None:
        """Wake the `events()` reader if it waits for the next event."""
        wakeup, self._wakeup = self._wakeup, None
        if wakeup is not None and not wakeup.done():
            wakeup.set_result(None)
