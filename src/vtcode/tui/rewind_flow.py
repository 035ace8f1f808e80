"""`/rewind` (Esc Esc on an empty composer) and `/redo` in the TUI: pick a turn, a scope, confirm.

Every step is a call on the session's `rewinds`; this module only shows choices and results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from vtcode.core.rewind_command import parse_rewind
from vtcode.protocol.errors import VtcodeError
from vtcode.runtime.rewind import Scope
from vtcode.runtime.session import Session
from vtcode.runtime.session_rewind import preview_text, result_text
from vtcode.tui.rewind_screens import ConfirmScreen
from vtcode.tui.screens import ChoiceScreen
from vtcode.tui.transcript import NoticeEntry

if TYPE_CHECKING:
    from vtcode.tui.app import VtcodeApp

SCOPE_CHOICES = (
    ("both", "code and conversation"),
    ("conversation", "conversation only"),
    ("code", "code only"),
)


class RewindFlow:
    """The steps of one `/rewind` or `/redo`."""

    def __init__(self, app: VtcodeApp, session: Session) -> None:
        self.app = app
        self.session = session

    async def say(self, text: str, *, error: bool = False) -> None:
        """A line in the transcript."""
        await self.app.transcript.add(NoticeEntry(text, error=error))

    async def rewind(self, argument: str) -> None:
        """`/rewind [TURN [scope] [yes] [force]]`."""
        if self.session.running:
            await self.say("a turn is running: rewind when it ends, or interrupt it first", error=True)
            return
        try:
            command = parse_rewind(argument)
        except ValueError as exc:
            await self.say(str(exc), error=True)
            return
        if command.turn is None:
            try:
                self._pick_turn()
            except VtcodeError as exc:  # a damaged checkpoint store: said, the session goes on
                await self.say(exc.user_text(), error=True)
        elif command.action == "apply":
            await self._apply(command.turn, command.scope, force=command.force)
        else:
            await self._preview(command.turn, command.scope)

    async def redo(self, argument: str) -> None:
        """`/redo`: put back what the last rewind changed."""
        try:
            await self.session.rewinds.redo(force="force" in argument.split())
        except VtcodeError as exc:
            await self.say(exc.user_text(), error=True)
        # What was redone is the session's own notice.

    def _pick_turn(self) -> None:
        turns = self.session.rewinds.turns()
        if not turns:
            self.app.run_worker(self.say("no checkpoints yet: nothing to rewind"))
            return
        choices = []
        for turn in reversed(turns):
            prompt = " ".join(turn.prompt.split())[:60]
            files = f"{len(turn.files)} file(s)" if turn.files else "no files"
            choices.append((str(turn.turn), f"turn {turn.turn:>3}  {prompt}  ({files})"))
        title = "Rewind to before which turn?  (Enter chooses, Esc cancels)"
        if not self.session.rewinds.covers_commands:
            title += "\nnote: without git, changes made by commands are not covered"

        def chosen(turn: str | None) -> None:
            if turn:
                self._pick_scope(int(turn))

        self.app.push_screen(ChoiceScreen(title, choices), chosen)

    def _pick_scope(self, turn: int) -> None:
        def chosen(scope: str | None) -> None:
            if scope:
                self.app.run_worker(self._preview(turn, cast(Scope, scope)))

        self.app.push_screen(
            ChoiceScreen(f"Rewind to before turn {turn}: restore what?", SCOPE_CHOICES), chosen
        )

    async def _preview(self, turn: int, scope: Scope) -> None:
        try:
            result = await self.session.rewinds.preview(turn, scope)
        except VtcodeError as exc:
            await self.say(exc.user_text(), error=True)
            return
        body = preview_text(
            result.planned, code=scope != "conversation", covers_commands=self.session.rewinds.covers_commands
        )
        if scope != "code":
            body += "\nthe conversation forks: this one stays resumable (/resume)"

        def confirmed(choice: str | None) -> None:
            if choice:
                self.app.run_worker(self._apply(turn, scope, force=choice == "force"))

        self.app.push_screen(ConfirmScreen(f"Rewind to before turn {turn}", body.strip()), confirmed)

    async def _apply(self, turn: int, scope: Scope, *, force: bool) -> None:
        try:
            result = await self.session.rewinds.apply(turn, scope, force=force)
        except VtcodeError as exc:
            await self.say(exc.user_text(), error=True)
            return
        if result.fork_id is None:
            return  # the session's notice says what was restored
        prompt = result.turn.prompt if result.turn is not None else ""
        # The session's notice of what was restored stays with the old transcript: say it on the branch.
        self.app.reopen(result.fork_id, notice=result_text(result))
        composer = self.app.composer
        composer.load_text(prompt)
        composer.move_cursor(composer.document.end)
        composer.focus()
