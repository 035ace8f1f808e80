"""What the app shows of a session: its events in the transcript, its approvals as dialogs.

The app owns the session and the widgets; this owns what the stream means on screen: which input the
session delivered, whether a turn runs, which approval waits for the user to stop typing.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from vtcode.protocol.events import (
    ApprovalRequested,
    ApprovalResolved,
    Event,
    IntentApplied,
    IntentQueued,
    ItemCompleted,
    ItemDelta,
    ItemStarted,
    ItemUpdated,
    Notice,
    PlanUpdated,
    SessionPaused,
    SessionResumed,
    ThreadCompacted,
    ThreadStarted,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
)
from vtcode.protocol.messages import UserMessage
from vtcode.protocol.ops import ApprovalAnswer
from vtcode.protocol.plan import Plan
from vtcode.tui.approval import TYPING_QUIET_SECONDS, ApprovalScreen
from vtcode.tui.transcript import NoticeEntry, UserEntry, compaction_text

if TYPE_CHECKING:
    from vtcode.tui.app import VtcodeApp

# How input found pending when the session opened is labelled once it runs.
QUEUED_BEFORE = "queued before"
# The labels a delivered input keeps on screen (a queued one is shown as plainly sent).
_SHOWN_MODES = ("steer", QUEUED_BEFORE)


class SessionView:
    """Renders one app's session events; reset when another session takes over."""

    def __init__(self, app: VtcodeApp) -> None:
        self.app = app
        self.busy = False
        # Since when a turn (or `/compact`) has been running, for the spinner's elapsed time.
        self.busy_since: float | None = None
        self.interrupted = False
        # Turns started so far: tells one turn from the next (a warning given during a turn holds for it).
        self.turns = 0
        # Input sent while a turn ran (text, and its mode or `QUEUED_BEFORE`), shown in the transcript
        # when the session delivers it.
        self.waiting: dict[str, tuple[str, str]] = {}
        self.approvals: dict[str, ApprovalScreen] = {}

    def reset(self) -> None:
        """Another session: nothing runs, nothing waits."""
        self.set_busy(False)
        self.waiting.clear()

    def set_busy(self, busy: bool) -> None:
        """A turn started or ended (the app times it)."""
        if busy != self.busy:
            self.busy_since = None
        self.busy = busy

    async def show(self, event: Event) -> None:
        """Show one event."""
        app = self.app
        transcript = app.transcript
        match event:
            case ItemDelta(item_id=item_id, kind=kind, delta=delta):
                await transcript.delta(item_id, kind, delta)
                return
            case ItemStarted(item=item) | ItemUpdated(item=item) if item is not None:
                await transcript.show_item(item)
            case ItemCompleted(item=item) if item is not None:
                await transcript.complete_item(item)
            case TurnStarted():
                self.turns += 1
                self.set_busy(True)
                self.interrupted = False
            case TurnCompleted():
                self.set_busy(False)
            case TurnFailed(kind=kind, message=message, hint=hint):
                self.set_busy(False)
                if kind == "interrupted":
                    await transcript.add(NoticeEntry("interrupted"))
                else:
                    await transcript.add(NoticeEntry(message, error=True, hint=hint))
            case ApprovalRequested():
                self.approvals[event.request_id] = ApprovalScreen(event, app.composer)
                self.show_when_quiet(event.request_id)
            case ApprovalResolved(request_id=request_id):
                screen = self.approvals.pop(request_id, None)
                if screen is not None and screen.is_current:
                    screen.withdraw()
            case IntentApplied(intent_id=intent_id):
                waiting = self.waiting.pop(intent_id, None)
                if waiting is not None:
                    text, mode = waiting
                    await transcript.add(UserEntry(text, mode=mode if mode in _SHOWN_MODES else ""))
                else:
                    # Input queued by another front end: the history has its text.
                    await self._show_delivered(intent_id)
            case IntentQueued(recovered=True, intent_id=intent_id, text=text):
                # Found pending when the session was opened (queued before a `/resume`, a restart or
                # a crash): shown as such when it runs, not as another terminal's.
                self.waiting[intent_id] = (text, QUEUED_BEFORE)
            case IntentQueued():
                pass
            case SessionPaused(reason="interrupted", pending_intents=pending):
                await transcript.add(
                    NoticeEntry(
                        f"paused: {pending} pending input(s) held — send new input to go on (they run "
                        "first), /pause to run them now, or Tab to edit or remove them"
                    )
                )
            case SessionPaused():
                await transcript.add(NoticeEntry("paused before the next step — /pause again to go on"))
            case SessionResumed():
                await transcript.add(NoticeEntry("going on"))
            case Notice(level=level, message=message):
                await transcript.add(NoticeEntry(message, warning=level == "warning"))
            case ThreadCompacted():
                await transcript.add(NoticeEntry(compaction_text(event)))
            case PlanUpdated(plan=steps, explanation=explanation):
                app.plan_panel.show_plan(Plan(steps=steps, explanation=explanation))
            case ThreadStarted(resumed=True, thread_id=thread_id):
                await transcript.add(NoticeEntry(f"resumed session {thread_id}"))
            case _:
                pass
        app.refresh_status()

    async def _show_delivered(self, intent_id: str) -> None:
        session = self.app.session
        if session is None:
            return
        for message in reversed(session.messages):
            if isinstance(message, UserMessage) and message.meta.intent_id == intent_id:
                await self.app.transcript.add(UserEntry(message.content, mode="queued elsewhere"))
                return

    def show_when_quiet(self, request_id: str) -> None:
        """Open the dialog once the user stops typing: keys meant for the composer must not answer it."""
        app = self.app
        screen = self.approvals.get(request_id)
        if screen is None:
            return  # answered or withdrawn (an interrupt) while the user typed
        idle = time.monotonic() - app.composer.typed_at
        if idle < TYPING_QUIET_SECONDS:
            app.set_timer(TYPING_QUIET_SECONDS - idle, lambda: self.show_when_quiet(request_id))
            return

        async def answered(answer: ApprovalAnswer | None) -> None:
            self.approvals.pop(request_id, None)
            if answer is not None:
                await app.submit(answer)

        app.push_screen(screen, answered)
