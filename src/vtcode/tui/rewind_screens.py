"""`/rewind` views: confirm a preview (the choices are `screens.ChoiceScreen`)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from vtcode.tui.safe import safe_text


class ConfirmScreen(ModalScreen[str | None]):
    """A preview to confirm: Enter or y applies ("apply"), f also over conflicts ("force"), Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,y", "choose('apply')", "apply"),
        Binding("f", "choose('force')", "apply over conflicts"),
        Binding("escape,n,q", "choose('')", "cancel"),
    ]

    def __init__(self, title: str, body: str) -> None:
        super().__init__(classes="text-screen")
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        """The title, the preview and the keys."""
        with VerticalScroll(classes="panel"):
            yield Static(Text(self.title_text, style="bold"), classes="panel-title")
            yield Static(Text(safe_text(self.body)), classes="panel-body")
            keys = "Enter applies · f applies over conflicts too · Esc cancels"
            yield Static(Text(keys, style="dim"))

    def action_choose(self, choice: str) -> None:
        """Close with the choice (empty: cancelled)."""
        self.dismiss(choice or None)
