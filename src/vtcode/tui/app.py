"""The Textual application: one session's transcript, the composer, pending input and the status line.

Everything that happens comes from the session's event stream; everything the user does is an
operation submitted to the session (or a session property read). No business logic lives here.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType

from vtcode.config.user_file import trust_project_mcp
from vtcode.mcp.servers import server_hashes, untrusted_project_servers
from vtcode.protocol.errors import ConfigError, VtcodeError
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
    SessionPaused,
    SessionResumed,
    ThreadCompacted,
    ThreadStarted,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
)
from vtcode.protocol.messages import AssistantMessage, UserMessage
from vtcode.protocol.ops import ApprovalAnswer, InputMode, Interrupt, Op, Shutdown, UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.runtime.workspace_index import complete_path
from vtcode.tui.approval import TYPING_QUIET_SECONDS, ApprovalScreen
from vtcode.tui.composer import Composer
from vtcode.tui.hooks_trust import options_after_hook_trust
from vtcode.tui.mcp_trust import McpTrustScreen
from vtcode.tui.pending import PendingList
from vtcode.tui.screens import SetupScreen
from vtcode.tui.slash import SlashCommands
from vtcode.tui.status_line import StatusLine
from vtcode.tui.theme import CSS
from vtcode.tui.transcript import AnswerEntry, NoticeEntry, Transcript, UserEntry

log = logging.getLogger(__name__)

SessionOpener = Callable[[SessionOptions], Awaitable[Session]]
# A second Ctrl+C within this many seconds quits.
QUIT_WINDOW_SECONDS = 2.0


class VtcodeApp(App[int]):
    """The interactive front end over one `Session` at a time (`/new` and `/resume` replace it)."""

    CSS = CSS
    TITLE = "vtcode"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "ctrl_c", "interrupt / clear / quit", priority=True, show=False),
        Binding("escape", "interrupt", "interrupt", show=False),
        Binding("ctrl+q", "quit", "quit", priority=True, show=False),
        Binding("pageup", "scroll_transcript(-1)", show=False),
        Binding("pagedown", "scroll_transcript(1)", show=False),
    ]

    def __init__(
        self,
        options: SessionOptions,
        *,
        prompt: str | None = None,
        opener: SessionOpener = Session.open,
        clock: Callable[[], float] = time.monotonic,
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
    ) -> None:
        super().__init__()
        self.options = options
        self.first_prompt = prompt
        self.session: Session | None = None
        self._opener = opener
        self._clock = clock
        self._new_id = new_id
        self._busy = False
        self._interrupted = False
        self._last_ctrl_c: float | None = None
        # Input sent while a turn ran, shown in the transcript when the session delivers it.
        self._waiting: dict[str, tuple[str, InputMode]] = {}
        self._approvals: dict[str, ApprovalScreen] = {}
        self._early: list[tuple[str, InputMode]] = []
        # Workspaces whose `.mcp.json` the user was already asked about in this run.
        self._asked_mcp: set[Path] = set()
        # Workspaces whose untrusted hooks the user was already asked about in this run.
        self._asked_hooks: set[Path] = set()
        self.crash: BaseException | None = None
        self.slash = SlashCommands(self)
        # Held here, not queried: events keep arriving while another screen (a dialog) is on top.
        self.transcript = Transcript()
        self.pending_list = PendingList()
        self.composer = Composer(complete=lambda prefix: complete_path(self.options.workspace, prefix))
        self.status_line = StatusLine()

    # -- layout ---------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Transcript, pending input, composer, status line."""
        yield self.transcript
        self.pending_list.display = False
        yield self.pending_list
        yield self.composer
        yield self.status_line

    async def on_mount(self) -> None:
        """Open the session in the background: the composer takes input at once."""
        composer = self.composer
        if self.is_headless:
            # Screenshots must not depend on where the blink was.
            composer.cursor_blink = False
        composer.focus()
        if not self.is_headless:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGHUP):
                # Quitting through the app restores the terminal and ends the session's commands.
                loop.add_signal_handler(signum, lambda: self.run_worker(self.action_quit()))
        # After the first paint: the composer shows (and takes keys) while the session opens.
        self.call_after_refresh(self._open_first)

    def _open_first(self) -> None:
        self.run_worker(self.open_session(self.options, first_prompt=self.first_prompt), group="session")

    # -- the session ----------------------------------------------------------------------------------

    async def open_session(self, options: SessionOptions, *, first_prompt: str | None = None) -> None:
        """Open a session (closing the current one) and read its events until it closes."""
        old, self.session = self.session, None
        if old is not None:
            await old.aclose()
        options = await self._asked_about_project_mcp(options)
        options = await options_after_hook_trust(
            options,
            self._asked_hooks,
            lambda screen: self.push_screen(screen, wait_for_dismiss=True),
            lambda message: self.transcript.add(NoticeEntry(message, warning=True)),
        )
        self.options = options
        try:
            session = await self._opener(options)
        except VtcodeError as exc:
            log.debug("session did not open", exc_info=True)
            await self.push_screen(
                SetupScreen(exc.message, exc.hint or "", configure=isinstance(exc, ConfigError))
            )
            return
        self.session = session
        self._busy = False
        self._waiting.clear()
        await self._show_history(session)
        self.run_worker(self._read(session), group="events")
        early, self._early = self._early, []
        if first_prompt:
            early.insert(0, (first_prompt, "queue"))
        for text, mode in early:
            await self.send(text, mode)
        self.refresh_status()

    async def _asked_about_project_mcp(self, options: SessionOptions) -> SessionOptions:
        """Ask once per project whether its `.mcp.json` servers may start; the options to open with."""
        if options.trust_project_mcp or options.workspace in self._asked_mcp:
            return options
        servers = untrusted_project_servers(options.settings, options.workspace)
        if not servers:
            return options
        self._asked_mcp.add(options.workspace)
        answer = await self.push_screen(
            McpTrustScreen(str(options.workspace), servers), wait_for_dismiss=True
        )
        if answer == "always":
            try:
                trust_project_mcp(options.home, options.workspace, server_hashes(servers))
            except VtcodeError as exc:
                await self.transcript.add(NoticeEntry(exc.message, warning=True))
        if answer in ("always", "session"):
            return replace(options, trust_project_mcp=True)
        return options

    async def _show_history(self, session: Session) -> None:
        """A resumed session's conversation, as text."""
        for message in session.messages:
            if isinstance(message, UserMessage) and message.meta.kind == "interruption":
                await self.transcript.add(NoticeEntry("interrupted"))
            elif isinstance(message, UserMessage) and message.meta.kind is None:
                # The environment context item is vtcode's, not the user's words.
                await self.transcript.add(UserEntry(message.content))
            elif isinstance(message, AssistantMessage) and message.content:
                entry = AnswerEntry()
                await self.transcript.add(entry)
                await entry.complete(message.content)

    async def _read(self, session: Session) -> None:
        async for event in session.events():
            if session is not self.session:
                continue
            try:
                await self.on_session_event(event)
            except Exception:  # one bad render must not stop the stream
                log.warning("an event could not be shown", exc_info=True)

    async def submit(self, op: Op) -> None:
        """Submit an operation to the current session."""
        if self.session is not None:
            await self.session.submit(op)
            self.refresh_status()

    async def send(self, text: str, mode: InputMode) -> None:
        """Send user input: at once when idle, otherwise queued or steering (shown when delivered)."""
        session = self.session
        if session is None:
            self._early.append((text, mode))
            await self.transcript.add(NoticeEntry("the session is still opening; your input will follow"))
            return
        if session.running or session.pending:
            intent_id = self._new_id()
            self._waiting[intent_id] = (text, mode)
            await session.submit(UserInput(text, mode=mode, intent_id=intent_id))
        else:
            await self.transcript.add(UserEntry(text))
            await session.submit(UserInput(text, mode=mode))
        self.refresh_status()

    def refresh_status(self) -> None:
        """Repaint the status line and the pending list from the session."""
        session = self.session
        if session is None:
            return
        self.status_line.show(session.status(), busy=self._busy)
        self.pending_list.show(session.pending)

    async def on_session_event(self, event: Event) -> None:
        """Show one event."""
        transcript = self.transcript
        match event:
            case ItemDelta(item_id=item_id, kind=kind, delta=delta):
                await transcript.delta(item_id, kind, delta)
                return
            case ItemStarted(item=item) | ItemUpdated(item=item) if item is not None:
                await transcript.show_item(item)
            case ItemCompleted(item=item) if item is not None:
                await transcript.complete_item(item)
            case TurnStarted():
                self._busy = True
                self._interrupted = False
            case TurnCompleted():
                self._busy = False
            case TurnFailed(kind=kind, message=message, hint=hint):
                self._busy = False
                if kind == "interrupted":
                    await transcript.add(NoticeEntry("interrupted"))
                else:
                    await transcript.add(NoticeEntry(message, error=True, hint=hint))
            case ApprovalRequested():
                self._ask(event)
            case ApprovalResolved(request_id=request_id):
                screen = self._approvals.pop(request_id, None)
                if screen is not None and screen.is_current:
                    screen.dismiss(None)
            case IntentApplied(intent_id=intent_id):
                waiting = self._waiting.pop(intent_id, None)
                if waiting is not None:
                    text, mode = waiting
                    await transcript.add(UserEntry(text, mode=mode if mode == "steer" else ""))
                else:
                    # Input queued by another front end (or before a resume): the history has its text.
                    await self._show_delivered(intent_id)
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
            case ThreadCompacted(before_messages=before, after_messages=after, trigger=trigger):
                await transcript.add(
                    NoticeEntry(f"history compacted ({trigger}): {before} → {after} messages")
                )
            case ThreadStarted(resumed=True, thread_id=thread_id):
                await transcript.add(NoticeEntry(f"resumed session {thread_id}"))
            case _:
                pass
        self.refresh_status()

    async def _show_delivered(self, intent_id: str) -> None:
        session = self.session
        if session is None:
            return
        for message in reversed(session.messages):
            if isinstance(message, UserMessage) and message.meta.intent_id == intent_id:
                await self.transcript.add(UserEntry(message.content, mode="queued elsewhere"))
                return

    def _ask(self, request: ApprovalRequested) -> None:
        self._approvals[request.request_id] = ApprovalScreen(request, self.composer)
        self._show_when_quiet(request.request_id)

    def _show_when_quiet(self, request_id: str) -> None:
        """Open the dialog once the user stops typing: keys meant for the composer must not answer it."""
        screen = self._approvals.get(request_id)
        if screen is None:
            return  # answered or withdrawn (an interrupt) while the user typed
        idle = time.monotonic() - self.composer.typed_at
        if idle < TYPING_QUIET_SECONDS:
            self.set_timer(TYPING_QUIET_SECONDS - idle, lambda: self._show_when_quiet(request_id))
            return

        async def answered(answer: ApprovalAnswer | None) -> None:
            self._approvals.pop(request_id, None)
            if answer is not None:
                await self.submit(answer)

        self.push_screen(screen, answered)

    # -- input ----------------------------------------------------------------------------------------

    async def on_composer_submitted(self, message: Composer.Submitted) -> None:
        """Send the composer's text, or run the slash command it is."""
        if await self.slash.run(message.text):
            return
        text = message.text[1:] if message.text.startswith("//") else message.text
        await self.send(text, message.mode)

    async def on_pending_list_withdraw(self, message: PendingList.Withdraw) -> None:
        """Take a pending input back from the session before it is delivered."""
        session = self.session
        taken = await session.withdraw(message.intent_id) if session is not None else None
        self._waiting.pop(message.intent_id, None)
        if taken is None:
            self.notify("already delivered", severity="warning")
        elif message.edit:
            composer = self.composer
            composer.load_text(taken.text)
            composer.move_cursor(composer.document.end)
            composer.focus()
        self.refresh_status()

    async def action_interrupt(self) -> None:
        """Esc: interrupt the running turn (again: without grace for its commands)."""
        if self.session is None or not self.session.running:
            return
        force = self._interrupted
        self._interrupted = True
        await self.submit(Interrupt(force=force))

    async def action_ctrl_c(self) -> None:
        """Copy a selection; else interrupt a running turn or clear the composer; twice within 2 s quits."""
        selected = self.screen.get_selected_text()
        if selected:
            self.copy_to_clipboard(selected)
            self.screen.clear_selection()
            self.notify("copied")
            return
        now = self._clock()
        if self._last_ctrl_c is not None and now - self._last_ctrl_c <= QUIT_WINDOW_SECONDS:
            await self.action_quit()
            return
        self._last_ctrl_c = now
        if isinstance(self.screen, SetupScreen):
            await self.action_quit()
            return
        if self.session is not None and self.session.running:
            await self.action_interrupt()
        elif self.composer.text:
            self.composer.clear()
        self.notify("Ctrl+C again to quit", timeout=QUIT_WINDOW_SECONDS)

    def action_scroll_transcript(self, direction: int) -> None:
        """Page the transcript up or down."""
        transcript = self.transcript
        if direction < 0:
            transcript.scroll_page_up(animate=False)
        else:
            transcript.scroll_page_down(animate=False)

    async def on_unmount(self) -> None:
        """However the app ends, the session ends with it (its commands too)."""
        session, self.session = self.session, None
        if session is not None:
            await session.aclose()

    async def action_quit(self) -> None:
        """End the session (its commands end too) and leave."""
        session, self.session = self.session, None
        if session is not None:
            await session.submit(Shutdown())
        self.exit(0)

    def reopen(self, resume: str | None) -> None:
        """Replace the session with a new one (`/new`) or the stored session `resume` (`/resume`)."""
        options = replace(self.options, resume=resume, continue_last=False)
        self.transcript.clear()
        self.run_worker(self.open_session(options), group="session")

    def _fatal_error(self) -> None:
        # Textual would print a traceback with locals; the launcher reports the error in one line.
        self.crash = self._exception
        self._close_messages_no_wait()
