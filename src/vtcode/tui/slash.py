"""Running slash commands: each one submits an operation or reads a session property."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtcode.core.hooks.report import hooks_text
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.ops import Compact, Pause, Resume
from vtcode.runtime.workspace_index import stored_sessions
from vtcode.tui.commands import COMMANDS, help_text, parse
from vtcode.tui.jobs_screen import JobsScreen
from vtcode.tui.memory_view import memory_text
from vtcode.tui.screens import SessionPicker, TextScreen
from vtcode.tui.status_view import status_details
from vtcode.tui.transcript import NoticeEntry

if TYPE_CHECKING:
    from vtcode.tui.app import VtcodeApp


class SlashCommands:
    """The slash commands of one app."""

    def __init__(self, app: VtcodeApp) -> None:
        self.app = app

    async def _say(self, text: str, *, error: bool = False) -> None:
        await self.app.transcript.add(NoticeEntry(text, error=error))

    async def run(self, text: str) -> bool:
        """Run `text` if it is a slash command; False when it is ordinary input."""
        command = parse(text)
        if command is None:
            return False
        app = self.app
        session = app.session
        name, argument = command.name, command.argument
        if name not in COMMANDS:
            await self._say(f"unknown command /{name} (/help lists them; //text sends /text)", error=True)
            return True
        if name == "help":
            app.push_screen(TextScreen("vtcode help", help_text()))
        elif name == "quit":
            await app.action_quit()
        elif name == "new":
            app.reopen(None)
        elif name == "resume":
            await self._resume(argument)
        elif session is None:
            await self._say("the session is not open", error=True)
        elif name == "compact":
            await app.submit(Compact())
        elif name == "pause":
            await app.submit(Resume() if session.paused else Pause())
        elif name == "jobs":
            app.push_screen(JobsScreen(session.jobs))
        elif name == "memory":
            app.push_screen(TextScreen("Instructions (/memory)", memory_text(session.instructions_report())))
        elif name == "hooks":
            app.push_screen(TextScreen("Hooks (/hooks)", hooks_text(session.options.hooks)))
        elif name == "status":
            app.push_screen(TextScreen("Status", status_details(session.status())))
        elif name in ("model", "profile"):
            await self._switch(name, argument)
        elif name == "steer":
            if argument:
                await app.send(argument, "steer")
            else:
                await self._say("/steer needs the text to deliver", error=True)
        return True

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
        if argument:
            app.reopen(argument)
            return
        sessions = stored_sessions(app.options.home)
        current = app.session.id if app.session is not None else None
        sessions = [s for s in sessions if s.id != current]
        if not sessions:
            await self._say("no stored sessions to resume")
            return

        def chosen(session_id: str | None) -> None:
            if session_id:
                app.reopen(session_id)

        app.push_screen(SessionPicker(sessions, str(app.options.workspace.resolve())), chosen)
