"""`/permissions`: the approval and sandbox modes, and the session grants, each revocable."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from vtcode.core.approvals import Grant
from vtcode.protocol.ops import RevokeGrant
from vtcode.runtime.session import Session
from vtcode.tui.safe import safe_text

Submit = Callable[[RevokeGrant], Awaitable[None]]


class PermissionsScreen(ModalScreen[None]):
    """Lists what this session may do without asking; `d` takes a grant back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "close"),
        Binding("d,delete,backspace", "revoke", "revoke"),
    ]

    def __init__(self, session: Session, submit: Submit) -> None:
        super().__init__(classes="text-screen")
        self.session = session
        self.submit = submit
        self.shown: tuple[Grant, ...] = ()

    def compose(self) -> ComposeResult:
        """Modes, then the grants."""
        status = self.session.status()
        head = Text()
        head.append("Permissions  (d revokes the highlighted grant · Esc closes)\n\n", style="bold")
        head.append(f"approval mode  {status.approval_mode}\n")
        head.append(f"sandbox        {status.sandbox_mode}\n\n")
        head.append("Allowed for this session:", style="bold")
        with VerticalScroll(classes="panel"):
            yield Static(head)
            yield OptionList(id="grant-list")
            yield Static("", id="grant-note")

    def on_mount(self) -> None:
        """Fill the list."""
        self._refresh()
        self.query_one("#grant-list", OptionList).focus()

    def _refresh(self) -> None:
        self.shown = self.session.grants
        options = self.query_one("#grant-list", OptionList)
        options.clear_options()
        options.add_options([Option(Text(safe_text(g.describe()))) for g in self.shown])
        if self.shown:
            options.highlighted = 0
        else:
            self.query_one("#grant-note", Static).update(
                Text("nothing: every call the approval mode asks about is asked about", style="dim")
            )

    async def action_revoke(self) -> None:
        """Take the highlighted grant back: its calls are asked about again."""
        index = self.query_one("#grant-list", OptionList).highlighted
        if index is None or index >= len(self.shown):
            return
        grant = self.shown[index]
        await self.submit(RevokeGrant(grant.kind, grant.value))
        self._refresh()
        self.query_one("#grant-note", Static).update(
            Text(f"revoked: {safe_text(grant.describe())}", style="yellow")
        )

    def action_close(self) -> None:
        """Back to the transcript."""
        self.dismiss(None)
