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

from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.driver import Driver

from vtcode.config.user_file import trust_project_mcp
from vtcode.mcp.servers import server_hashes, untrusted_project_servers
from vtcode.protocol.errors import ConfigError, VtcodeError
from vtcode.protocol.messages import UserMessage
from vtcode.protocol.ops import InputMode, Interrupt, Op, Shutdown, UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.runtime.workspace_index import complete_path
from vtcode.tui.composer import Composer
from vtcode.tui.file_picker import FilePicker
from vtcode.tui.history_view import show_history
from vtcode.tui.hooks_trust import options_after_hook_trust
from vtcode.tui.image_mentions import MentionedImages, mentioned_images
from vtcode.tui.mcp_trust import McpTrustScreen
from vtcode.tui.output_view import output_screen
from vtcode.tui.pending import PendingList
from vtcode.tui.plan_panel import PlanPanel
from vtcode.tui.screens import SetupScreen
from vtcode.tui.scrollback import conversation_text
from vtcode.tui.session_view import SessionView
from vtcode.tui.skills_view import menu_entries
from vtcode.tui.slash import SlashCommands
from vtcode.tui.status_line import StatusLine
from vtcode.tui.terminal_driver import driver_class
from vtcode.tui.terminal_keys import read_alt_enter_as_steer
from vtcode.tui.theme import CSS
from vtcode.tui.transcript import CommandCard, NoticeEntry, Transcript, UserEntry

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
        # Priority: the composer (a text area) would take them for itself otherwise.
        Binding("pageup", "scroll_transcript('page_up')", priority=True, show=False),
        Binding("pagedown", "scroll_transcript('page_down')", priority=True, show=False),
        Binding("home,ctrl+home", "scroll_transcript('home')", priority=True, show=False),
        Binding("end,ctrl+end", "scroll_transcript('end')", priority=True, show=False),
        Binding("ctrl+t", "toggle_plan", "hide / show the plan", priority=True, show=False),
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
        read_alt_enter_as_steer()
        self.options = options
        self.first_prompt = prompt
        self.session: Session | None = None
        self._opener = opener
        self._clock = clock
        self._new_id = new_id
        self._last_ctrl_c: float | None = None
        self._last_escape: float | None = None
        self.view = SessionView(self)
        self._early: list[tuple[str, InputMode]] = []
        # Workspaces whose `.mcp.json` the user was already asked about in this run.
        self._asked_mcp: set[Path] = set()
        # Workspaces whose untrusted hooks the user was already asked about in this run.
        self._asked_hooks: set[Path] = set()
        self.crash: BaseException | None = None
        # The signal (SIGTERM, SIGHUP) that ended the app: its exit status is 128 + it, as a shell's.
        self.signalled: int | None = None
        # The session to name in a "resume with" line after quitting (one with a conversation).
        self.resumable: str | None = None
        # The conversation to leave in the terminal's scrollback after quitting (tui.scrollback).
        self.farewell = ""
        self.slash = SlashCommands(self)
        # Held here, not queried: events keep arriving while another screen (a dialog) is on top.
        self.transcript = Transcript()
        self.pending_list = PendingList()
        self.plan_panel = PlanPanel()
        self.composer = Composer(complete=lambda prefix: complete_path(self.options.workspace, prefix))
        self.composer.menu = lambda: menu_entries(self.session.skills if self.session is not None else None)
        self.status_line = StatusLine()

    # -- layout ---------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Transcript, the plan, pending input, composer, status line."""
        yield self.transcript
        yield self.plan_panel
        self.pending_list.display = False
        yield self.pending_list
        yield self.composer.slash_menu
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
                loop.add_signal_handler(signum, self._quit_on_signal, signum)
        self.set_interval(0.25, self._tick)
        # After the first paint: the composer shows (and takes keys) while the session opens.
        self.call_after_refresh(self._open_first)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this terminal, made safe against the terminal's loss."""
        return driver_class(super().get_driver_class())

    def _quit_on_signal(self, signum: int) -> None:
        if self.signalled is None:
            self.signalled = signum
        self.run_worker(self.action_quit())

    def _open_first(self) -> None:
        self.run_worker(self.open_session(self.options, first_prompt=self.first_prompt), group="session")

    # -- the session ----------------------------------------------------------------------------------

    async def open_session(
        self, options: SessionOptions, *, first_prompt: str | None = None, notice: str | None = None
    ) -> None:
        """Open a session and read its events until it closes; the current one is closed only once the
        new one is open (a mistyped `/resume` id keeps it)."""
        options = await self._asked_about_project_mcp(options)
        options = await options_after_hook_trust(
            options,
            self._asked_hooks,
            lambda screen: self.push_screen(screen, wait_for_dismiss=True),
            lambda message: self.transcript.add(NoticeEntry(message, warning=True)),
        )
        try:
            session = await self._opener(options)
        except VtcodeError as exc:
            log.debug("session did not open", exc_info=True)
            if self.session is not None:
                await self.transcript.add(
                    NoticeEntry(f"{exc.message}; this session goes on", error=True, hint=exc.hint or "")
                )
                return
            await self.push_screen(
                SetupScreen(
                    exc.message,
                    exc.hint or "",
                    configure=isinstance(exc, ConfigError),
                    config_file=_shown_path(options.home / "vtcode.toml", options.env.get("HOME")),
                )
            )
            return
        old, self.session = self.session, None
        if old is not None:
            await old.aclose()
            self.transcript.clear()
        self.options = options
        self.session = session
        self.view.reset()
        self.plan_panel.show_plan(session.plan)
        await show_history(self.transcript, session.messages, session.past_events())
        if notice:
            await self.transcript.add(NoticeEntry(notice))
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

    async def _read(self, session: Session) -> None:
        async for event in session.events():
            if session is not self.session:
                continue
            try:
                await self.view.show(event)
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
        mentioned = mentioned_images(text, self.options.workspace) if "@" in text else MentionedImages()
        images = tuple(mentioned.images)
        if session.running or session.pending:
            intent_id = self._new_id()
            self.view.waiting[intent_id] = (text, mode)
            await self._image_notes(mentioned)
            await session.submit(UserInput(text, mode=mode, intent_id=intent_id, images=images))
        else:
            await self.transcript.add(UserEntry(text))
            await self._image_notes(mentioned)
            await session.submit(UserInput(text, mode=mode, images=images))
        self.refresh_status()

    async def _image_notes(self, mentioned: MentionedImages) -> None:
        for note in mentioned.notes:
            await self.transcript.add(NoticeEntry(note))
        for warning in mentioned.warnings:
            await self.transcript.add(NoticeEntry(warning, warning=True))

    def refresh_status(self) -> None:
        """Repaint the status line and the pending list from the session."""
        session = self.session
        if session is None:
            return
        view = self.view
        status = session.status()
        # A `/compact` between turns runs with no turn events: the session's own flag tells.
        compacting = session.compacting
        busy = view.busy or compacting
        if busy and view.busy_since is None:
            view.busy_since = self._clock()
        elif not busy:
            view.busy_since = None
        elapsed = self._clock() - view.busy_since if view.busy_since is not None else 0.0
        activity = "compacting" if compacting else "working"
        self.status_line.show(status, busy=busy, activity=activity, elapsed=elapsed)
        self.pending_list.show(session.pending)

    def _tick(self) -> None:
        """Four times a second: the spinner, and command cards whose job ended since."""
        session = self.session
        if session is None:
            return
        open_cards = self.transcript.open_job_cards()
        if open_cards:
            jobs = {job.id: job for job in session.jobs.list()}
            for card in open_cards:
                card.job_changed(jobs.get(card.item.session_id or ""))
        if self.view.busy or session.compacting or open_cards or self.status_line.live:
            self.refresh_status()

    # -- input ----------------------------------------------------------------------------------------

    async def on_composer_submitted(self, message: Composer.Submitted) -> None:
        """Send the composer's text, or run the slash command it is."""
        if await self.slash.run(message.text):
            return
        text = message.text[1:] if message.text.startswith("//") else message.text
        await self.send(text, message.mode)

    def on_composer_pick_file(self, message: Composer.PickFile) -> None:
        """Open the `@` file picker; the chosen path replaces the `@word` typed."""

        def chosen(path: str | None) -> None:
            if path:
                self.composer.insert_file(path)
            self.composer.focus()

        self.push_screen(FilePicker(self.options.workspace, message.query), chosen)

    def on_command_card_open_output(self, message: CommandCard.OpenOutput) -> None:
        """A command card's whole output, read from its spool, in a scrollable view."""
        session = self.session
        if session is None:
            return
        try:
            screen = output_screen(session, message.session_id, message.command)
        except VtcodeError as exc:
            self.notify(exc.user_text(), severity="warning")
            return
        self.push_screen(screen)

    async def on_pending_list_withdraw(self, message: PendingList.Withdraw) -> None:
        """Take a pending input back from the session before it is delivered."""
        session = self.session
        taken = await session.withdraw(message.intent_id) if session is not None else None
        self.view.waiting.pop(message.intent_id, None)
        if taken is None:
            self.notify("already delivered", severity="warning")
        elif message.edit:
            composer = self.composer
            composer.load_text(taken.text)
            composer.move_cursor(composer.document.end)
            composer.focus()
        self.refresh_status()

    async def action_interrupt(self) -> None:
        """Esc: interrupt the running turn (again: without grace); idle, Esc Esc opens /rewind."""
        if self.session is None or not self.session.running:
            self._escape_twice()
            return
        force = self.view.interrupted
        self.view.interrupted = True
        await self.submit(Interrupt(force=force))

    def _escape_twice(self) -> None:
        """Esc Esc with nothing typed, between turns, opens `/rewind`."""
        now, last = self._clock(), self._last_escape
        self._last_escape = now
        if self.composer.text.strip() or self.session is None:
            return
        if last is not None and now - last <= QUIT_WINDOW_SECONDS:
            self._last_escape = None
            self.run_worker(self.slash.run("/rewind"))

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
        if isinstance(self.screen, SetupScreen):
            await self.action_quit()
            return
        if self.composer.text.strip() and not (self.session is not None and self.session.running):
            # Clearing a draft is not a step towards quitting; the draft stays in the input history.
            self._last_ctrl_c = None
            self.composer.keep_draft()
            self.notify("draft cleared (Up brings it back)", timeout=QUIT_WINDOW_SECONDS)
            return
        self._last_ctrl_c = now
        if self.session is not None and self.session.running:
            await self.action_interrupt()
        self.notify("Ctrl+C again to quit", timeout=QUIT_WINDOW_SECONDS)

    def action_toggle_plan(self) -> None:
        """Ctrl+T: hide the plan panel, or show it again."""
        self.plan_panel.toggle()

    def action_scroll_transcript(self, where: str) -> None:
        """PageUp/PageDown page the transcript; Home/End go to its top/bottom while the composer is empty.

        A dialog or view on top keeps its own keys, and Home/End edit the composer's line while it has text.
        """
        if self.screen is not self.screen_stack[0]:
            raise SkipAction()
        transcript = self.transcript
        if where == "page_up":
            transcript.scroll_page_up(animate=False)
        elif where == "page_down":
            transcript.scroll_page_down(animate=False)
        elif self.composer.text and self.focused is self.composer:
            raise SkipAction()
        elif where == "home":
            transcript.scroll_home(animate=False)
        else:
            transcript.scroll_end(animate=False)

    async def on_unmount(self) -> None:
        """However the app ends, the session ends with it (its commands too)."""
        session, self.session = self.session, None
        if session is not None:
            await session.aclose()

    async def action_quit(self) -> None:
        """End the session (its commands end too) and leave."""
        session, self.session = self.session, None
        if session is not None:
            if any(isinstance(m, UserMessage) for m in session.messages):
                self.resumable = session.id
                self.farewell = conversation_text(session.messages, session.id)
            await session.submit(Shutdown())
        self.exit(0 if self.signalled is None else 128 + self.signalled)

    def reopen(self, resume: str | None, *, notice: str | None = None) -> None:
        """Replace the session with a new one (`/new`) or the stored session `resume` (`/resume`);
        `notice` is shown first in the new transcript."""
        options = replace(self.options, resume=resume, continue_last=False)
        self.run_worker(self.open_session(options, notice=notice), group="session")

    def _fatal_error(self) -> None:
        # Textual would print a traceback with locals; the launcher reports the error in one line.
        self.crash = self._exception
        self._close_messages_no_wait()


def _shown_path(path: Path, home: str | None) -> str:
    """`path` as a person types it: under their home directory, as `~/...`."""
    if home:
        try:
            return "~/" + path.relative_to(home).as_posix()
        except ValueError:
            pass
    return str(path)
