"""`/rewind` views: confirm a preview (the choices are `screens.ChoiceScreen`)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from vtcode.tui.screens import PanelScreen


class ConfirmScreen(PanelScreen[str | None]):
    """A preview to confirm: Enter or y applies ("apply"), f also over conflicts ("force"), Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,y", "choose('apply')", "apply"),
        Binding("f", "choose('force')", "apply over conflicts"),
        Binding("escape,n,q", "choose('')", "cancel"),
    ]
    KEYS_TEXT = "Enter applies · f applies over conflicts too · Esc cancels"

    def action_choose(self, choice: str) -> None:
        """Close with the choice (empty: cancelled)."""
        self.dismiss(choice or None)
