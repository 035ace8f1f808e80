"""A transcript card that shows one item (a command, an edit, a tool call) and follows its changes."""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from textual.widgets import Static

from vtcode.protocol.events import CommandExecutionItem, FileChangeItem, ToolCallItem

ShownItem = TypeVar("ShownItem", CommandExecutionItem, FileChangeItem, ToolCallItem)


class ItemCard(Static, Generic[ShownItem]):
    """Made for an item's first state; each later state of the same item goes to `change`."""

    #: The CSS classes of the card.
    card_classes: ClassVar[str] = "card"

    def __init__(self, item: ShownItem) -> None:
        super().__init__("", classes=self.card_classes)
        self.start(item)

    def start(self, item: ShownItem) -> None:
        """Set the card up for the item's first state and show it."""
        self.change(item)

    def change(self, item: ShownItem) -> None:
        """Show a newer state of the item."""
        raise NotImplementedError
