"""The `@` file picker: fuzzy search over the workspace's files (what git does not ignore) and their
folders, arrow keys to choose, Enter to insert, Esc to leave the text as it was."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from vtcode.runtime.workspace_index import find_files, workspace_file_list
from vtcode.tui.safe import safe_text


class FilePicker(ModalScreen[str | None]):
    """Dismissed with the chosen workspace path, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, workspace: Path, query: str) -> None:
        super().__init__(classes="text-screen")
        self.workspace = workspace
        self.query_text = query
        self.files: list[str] = []
        self.shown: list[str] = []

    def compose(self) -> ComposeResult:
        """The query, then the matches."""
        with Vertical(classes="panel", id="file-picker"):
            yield Static(
                Text("Insert a file  (type to search · ↑↓ choose · Enter insert · Esc cancel)", style="bold")
            )
            yield Input(self.query_text, placeholder="part of a path", id="file-query")
            yield OptionList(id="file-list")

    async def on_mount(self) -> None:
        """List the workspace's files off the event loop, then show the matches."""
        self.query_one("#file-query", Input).focus()
        self.files = await asyncio.to_thread(workspace_file_list, self.workspace)
        self._filter(self.query_one("#file-query", Input).value)

    def on_input_changed(self, event: Input.Changed) -> None:
        """Search again as the query changes."""
        self._filter(event.value)

    def _filter(self, query: str) -> None:
        self.shown = find_files(self.files, query)
        options = self.query_one("#file-list", OptionList)
        options.clear_options()
        options.add_options([Option(Text(safe_text(path))) for path in self.shown])
        if self.shown:
            options.highlighted = 0

    def on_key(self, event: events.Key) -> None:
        """Up and Down move in the list while the query keeps the focus."""
        if event.key in ("up", "down"):
            event.stop()
            options = self.query_one("#file-list", OptionList)
            if event.key == "up":
                options.action_cursor_up()
            else:
                options.action_cursor_down()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter inserts the highlighted file."""
        event.stop()
        index = self.query_one("#file-list", OptionList).highlighted
        if index is not None and index < len(self.shown):
            self.dismiss(self.shown[index])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click inserts that file."""
        event.stop()
        self.dismiss(self.shown[event.option_index])

    def action_cancel(self) -> None:
        """Leave the composer as it was."""
        self.dismiss(None)
