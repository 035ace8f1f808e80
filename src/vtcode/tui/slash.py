"""Running slash commands: each one submits an operation or reads a session property."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from vtcode.core.hooks.report import hooks_text
from vtcode.core.prompt_commands import PROMPT_COMMANDS
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.ops import Compact, Pause, Resume
from vtcode.runtime.session import Session
from vtcode.runtime.workspace_index import stored_session_id, stored_sessions
from vtcode.tui.commands import COMMANDS, help_text, parse, unknown_command_text
from vtcode.tui.jobs_screen import JobsScreen
from vtcode.tui.memory_view import memory_text
from vtcode.tui.permissions_screen import PermissionsScreen
from vtcode.tui.rewind_flow import RewindFlow
from vtcode.tui.screens import SessionPicker, TextScreen
from vtcode.tui.skills_view import skills_text
from vtcode.tui.status_view import status_details, usage_details
from vtcode.tui.transcript import NoticeEntry

if TYPE_CHECKING:
    from vtcode.tui.app import VtcodeApp


class SlashCommands:
    """The slash commands of one app."""

    def __init__(self, app: VtcodeApp) -> None:
        self.app = app
        # The command and turn (session id, turns started) a warning was given for: `/new` or `/resume`
        # again during that turn goes on.
        self._warned: tuple[str, str, int] | None = None

    async def _say(self, text: str, *, error: bool = False) -> None:
        await self.app.transcript.add(NoticeEntry(text, error=error))

    async def _may_end_the_turn(self, name: str, then: str) -> bool:
        """Whether `/name` may replace the session: at once between turns; during a turn, when it is
        typed again in that same turn (the first time says what it would end)."""
        session = self.app.session
        turn = (name, session.id, self.app.view.turns) if session is not None and session.running else None
        if turn is None or self._warned == turn:
            self._warned = None
            return True
        self._warned = turn
        await self._say(f"a turn is running: /{name} again interrupts it and {then}")
        return False

    async def run(self, text: str) -> bool:
        """Run `text` if it is a slash command; False when it is ordinary input."""
        command = parse(text)
        if command is None:
            return False
        name, argument = command.name, command.argument
        skills = self.app.session.skills if self.app.session is not None else None
        if name in PROMPT_COMMANDS:
            return False  # `/init`: sent as typed, the runtime puts its prompt in when the turn starts
        if name not in COMMANDS and skills is not None and skills.lookup(command.typed):
            return False  # a skill or custom command: the runtime expands it when its turn starts
        if name not in COMMANDS:
            await self._say(unknown_command_text(name), error=True)
            return True
        handler = self._handlers().get(name)
        if handler is not None:
            await handler(argument)
        elif self.app.session is None:
            await self._say("the session is not open", error=True)
        else:
            await self._session_handlers()[name](self.app.session, argument)
        return True

    def _handlers(self) -> dict[str, Callable[[str], Awaitable[None]]]:
        """Commands that work with or without an open session."""
        app = self.app

        async def show_help(_: str) -> None:
            app.push_screen(TextScreen("vtcode help", help_text()))

        async def quit_app(_: str) -> None:
            await app.action_quit()

        async def new(_: str) -> None:
            if await self._may_end_the_turn("new", "starts a new session"):
                app.reopen(None)

        return {"help": show_help, "quit": quit_app, "new": new, "resume": self._resume}

    def _session_handlers(self) -> dict[str, Callable[[Session, str], Awaitable[None]]]:
        """Commands on the open session; a new one is one entry here and one in `COMMANDS`."""
        app = self.app

        async def compact(session: Session, _: str) -> None:
            await app.submit(Compact())

        async def pause(session: Session, _: str) -> None:
            await app.submit(Resume() if session.paused else Pause())

        async def jobs(session: Session, _: str) -> None:
            app.push_screen(JobsScreen(session.jobs))

        async def memory(session: Session, _: str) -> None:
            app.push_screen(TextScreen("Instructions (/memory)", memory_text(session.instructions_report())))

        async def hooks(session: Session, _: str) -> None:
            app.push_screen(TextScreen("Hooks (/hooks)", hooks_text(session.options.hooks)))

        async def skills(session: Session, _: str) -> None:
            app.push_screen(TextScreen("Skills and commands (/skills)", skills_text(session.skills)))

        async def status(session: Session, _: str) -> None:
            app.push_screen(TextScreen("Status", status_details(session.status())))

        async def usage(session: Session, _: str) -> None:
            app.push_screen(TextScreen("Usage (/usage)", usage_details(session.usage())))

        async def permissions(session: Session, _: str) -> None:
            app.push_screen(PermissionsScreen(session, app.submit))

        async def model(session: Session, argument: str) -> None:
            await self._switch("model", argument)

        async def profile(session: Session, argument: str) -> None:
            await self._switch("profile", argument)

        async def steer(session: Session, argument: str) -> None:
            if argument:
                await app.send(argument, "steer")
            else:
                await self._say("/steer needs the text to deliver", error=True)

        async def rewind(session: Session, argument: str) -> None:
            await RewindFlow(app, session).rewind(argument)

        async def redo(session: Session, argument: str) -> None:
            await RewindFlow(app, session).redo(argument)

        return {
            "rewind": rewind,
            "redo": redo,
            "compact": compact,
            "pause": pause,
            "jobs": jobs,
            "memory": memory,
            "hooks": hooks,
            "skills": skills,
            "status": status,
            "usage": usage,
            "permissions": permissions,
            "model": model,
            "profile": profile,
            "steer": steer,
        }

    async def _switch(self, name: str, argument: str) -> None:
        session = self.app.session
        assert session is not None
        if not argument:
            status = session.status()
            current = status.model if name == "model" else status.profile
            await self._say(f"{name}: {current} (/{name} NAME changes it from the next turn)")
            return
        try:
            if name == "model":
                session.switch(model=argument)
            else:
                session.switch(profile=argument)
        except VtcodeError as exc:
            await self._say(exc.user_text(), error=True)
            return
        if session.running:
            await self._say(f"{name} {argument} takes effect when this turn ends")
        self.app.refresh_status()

    async def _resume(self, argument: str) -> None:
        app = self.app
        current = app.session.id if app.session is not None else None
        if argument:
            if current is not None and _names(argument, current, app.options.home):
                await self._say(f"session {current} is the one open")
            elif await self._may_end_the_turn("resume", f"opens session {argument}"):
                app.reopen(argument)
            return
        sessions = stored_sessions(app.options.home)
        sessions = [s for s in sessions if s.id != current]
        if not sessions:
            await self._say("no stored sessions to resume")
            return
        if not await self._may_end_the_turn("resume", "opens the session you pick"):
            return

        def chosen(session_id: str | None) -> None:
            if session_id:
                app.reopen(session_id)

        app.push_screen(SessionPicker(sessions, str(app.options.workspace.resolve())), chosen)


def _names(argument: str, current: str, home: Path) -> bool:
    """Whether `argument` (an id or a prefix, as `/resume` takes) names the open session, by the rule
    that opens sessions; one that names none or several is left for the open to refuse."""
    if argument == current:
        return True  # also when it is not stored (`--ephemeral`)
    try:
        return stored_session_id(home, argument) == current
    except VtcodeError:
        return False
