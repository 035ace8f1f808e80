"""A subagent in the transcript: one line with the tool it is using now, opened for its tools and answer."""

from __future__ import annotations

import json
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Click

from vtcode.protocol.events import ToolCallItem
from vtcode.tui.item_card import ItemCard
from vtcode.tui.safe import safe_text

# Lines of the child's answer shown when the card is open.
ANSWER_LINES = 40


class SubagentCard(ItemCard[ToolCallItem], can_focus=True):
    """A `task` call: collapsed to one line (its current tool while it runs); enter or a click opens it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "open_close", "open or close", show=False)]

    card_classes = "card tool"

    def start(self, item: ToolCallItem) -> None:
        """A closed card that has seen no tool of the child yet."""
        self.open = False
        self.tools: list[str] = []
        self.item = item
        self.change(item)

    def change(self, item: ToolCallItem) -> None:
        """Show `item`; each new current tool of the child is remembered for the open card."""
        self.item = item
        current = (item.details or {}).get("current_tool")
        if isinstance(current, str) and current and (not self.tools or self.tools[-1] != current):
            self.tools.append(current)
        self.update(self._text())

    def action_open_close(self) -> None:
        """Open or close the card."""
        self.open = not self.open
        self.update(self._text())

    def on_click(self, event: Click) -> None:
        """A click opens or closes it too."""
        event.stop()
        self.action_open_close()

    def _text(self) -> str | Text:
        item = self.item
        text = Text()
        text.append("▾ " if self.open else "▸ ", style="dim")
        text.append("subagent ", style="bold")
        text.append(safe_text(_label(item.arguments)))
        details = item.details or {}
        if item.status == "in_progress":
            now = self.tools[-1] if self.tools else "starting"
            text.append(f"  … {safe_text(now)}", style="cyan")
        else:
            tokens = int(details.get("input_tokens") or 0) + int(details.get("output_tokens") or 0)
            calls = details.get("tool_calls")
            state = details.get("status") or item.status
            summary = f"{state}" if calls is None else f"{state}: {calls} tool calls, {tokens:,} tokens"
            text.append(f"  ({summary})", style="green" if state == "completed" else "yellow")
        if self.open:
            for tool in self.tools:
                text.append(f"\n    • {safe_text(tool)}", style="dim")
            if item.result and item.status != "in_progress":
                answer = safe_text(item.result).splitlines()[:ANSWER_LINES]
                text.append("\n" + "\n".join(f"    {line}" for line in answer))
        return text


def _label(arguments: str) -> str:
    """`explore: find the loader` from the call's arguments."""
    try:
        values = json.loads(arguments or "{}")
    except ValueError:
        return arguments
    if not isinstance(values, dict):
        return arguments
    return f"{values.get('subagent_type') or '?'}: {values.get('description') or ''}".strip()
