"""`/rewind` views: pick one of several choices, and confirm a preview."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from vtcode.tui.safe import safe_text


class ChoiceScreen(ModalScreen[str | None]):
    """Choose one line; dismissed with its id, or None on Esc."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, title: str, choices: Sequence[tuple[str, str]]) -> None:
        super().__init__(classes="text-screen")
        self.title_text = title
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        """The title and one option per choice."""
        with VerticalScroll(classes="panel"):
            yield Static(Text(self.title_text, style="bold"))
            yield OptionList(*(Option(safe_text(label), id=key) for key, label in self.choices))

    def on_mount(self) -> None:
        """The first choice is highlighted."""
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Take the chosen line."""
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        """Choose nothing."""
        self.dismiss(None)


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
