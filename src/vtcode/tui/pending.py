"""Pending input: what waits for the running turn to end (queue) or for its next boundary (steer).

Focus it with Tab from the composer; Enter or `e` takes an entry back into the composer to edit it,
Delete or `d` removes it. Both withdraw the intent from the session first, so it is never delivered twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from vtcode.protocol.ops import UserInput
from vtcode.tui.safe import safe_text


class PendingList(OptionList):
    """The session's pending input, in delivery order."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e,enter", "edit", "edit"),
        Binding("d,delete,backspace", "remove", "remove"),
    ]

    @dataclass
    class Withdraw(Message):
        """The user wants intent `intent_id` back (`edit`) or gone."""

        intent_id: str
        edit: bool

    def __init__(self) -> None:
        super().__init__(id="pending")
        self.items: tuple[UserInput, ...] = ()

    def show(self, items: tuple[UserInput, ...]) -> None:
        """Repaint with the session's pending input (entries without an intent id are already running)."""
        items = tuple(i for i in items if i.intent_id)
        if items == self.items:
            return
        self.items = items
        highlighted = self.highlighted
        self.clear_options()
        for item in items:
            first = safe_text(item.text).strip().split("\n")[0]
            label = Text()
            label.append(f"{item.mode:<5} ", style="cyan" if item.mode == "steer" else "dim")
            label.append(first if len(first) <= 100 else first[:99] + "…")
            self.add_option(Option(label, id=item.intent_id))
        self.display = bool(items)
        if items:
            self.highlighted = min(highlighted or 0, len(items) - 1)

    def _selected(self) -> str | None:
        index = self.highlighted
        if index is None or index >= len(self.items):
            return None
        return self.items[index].intent_id

    def action_edit(self) -> None:
        """Take the highlighted entry back into the composer."""
        intent_id = self._selected()
        if intent_id:
            self.post_message(self.Withdraw(intent_id, edit=True))

    def action_remove(self) -> None:
        """Remove the highlighted entry."""
        intent_id = self._selected()
        if intent_id:
            self.post_message(self.Withdraw(intent_id, edit=False))
