"""The `/` menu: while a command name is typed at the start of the composer, the commands, skills and
custom commands it could be show above it with their argument hint and description (as Claude Code,
Codex and Gemini CLI show them). Up/Down choose, Tab puts the chosen one in; typing goes on in the
composer, which keeps the focus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from vtcode.tui.safe import safe_text

if TYPE_CHECKING:
    from vtcode.tui.skills_view import MenuEntry

MAX_SHOWN = 50
NAME_COLUMN = 28


class SlashMenu(OptionList):
    """The matching `/name` entries; never focused (keys reach it through the composer)."""

    can_focus = False

    def __init__(self) -> None:
        super().__init__(id="slash-menu")
        self.display = False
        self.names: list[str] = []
        self.moved = False

    def show(self, entries: list[MenuEntry], typed: str) -> None:
        """List the entries whose name starts with `typed` (hidden when none does)."""
        matching = [e for e in entries if e.name.startswith(typed.lower())][:MAX_SHOWN]
        names = [e.name for e in matching]
        if names == self.names and self.display:
            return
        self.names = names
        self.moved = False
        self.clear_options()
        if not matching:
            self.display = False
            return
        # A long argument hint pushes only its own description right, not every row's.
        width = min(NAME_COLUMN, max(len(e.name) + len(e.hint) + 2 for e in matching))
        self.add_options([Option(_row(e, width)) for e in matching])
        self.highlighted = 0
        self.display = True

    def hide(self) -> None:
        """Hide the menu (the text no longer starts with a command name being typed)."""
        if self.display:
            self.display = False
            self.names = []
            self.clear_options()

    def move(self, step: int) -> None:
        """Move the highlight up (-1) or down (+1), wrapping around."""
        if self.names:
            self.highlighted = ((self.highlighted or 0) + step) % len(self.names)
            self.moved = True

    def chosen(self) -> str | None:
        """The highlighted command's name."""
        index = self.highlighted
        return self.names[index] if self.display and index is not None and index < len(self.names) else None


def _row(entry: MenuEntry, width: int) -> Text:
    row = Text(no_wrap=True, overflow="ellipsis")
    row.append(f"/{entry.name}", style="bold")
    if entry.hint:
        row.append(f" {safe_text(entry.hint)}", style="italic")
    row.append(" " * max(2, width - len(entry.name) - len(entry.hint) - (1 if entry.hint else 0)))
    row.append(safe_text(entry.description).replace("\n", " ")[:200], style="dim")
    if entry.source != "built-in":
        row.append(f"  ({entry.source})", style="dim")
    return row
