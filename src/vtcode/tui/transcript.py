"""The transcript: user turns, streamed answers, collapsed reasoning, tool cards, notices and errors."""

from __future__ import annotations

import json
import signal
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Collapsible, Static

from vtcode.core.call_summary import argument_summary
from vtcode.protocol.events import (
    AgentMessageItem,
    CommandExecutionItem,
    FileChangeItem,
    Item,
    ReasoningItem,
    ThreadCompacted,
    ToolCallItem,
)
from vtcode.runtime.jobs import Job
from vtcode.tui.edit_preview import change_heading, coloured_diff
from vtcode.tui.item_card import ItemCard, ShownItem
from vtcode.tui.markdown_view import AnswerMarkdown
from vtcode.tui.safe import safe_text, tail_lines
from vtcode.tui.subagent_card import SubagentCard
from vtcode.tui.tool_names import tool_title

# Lines of live command output a card shows (the rest is in `/jobs show` and the spool).
LIVE_TAIL_LINES = 6


class UserEntry(Static):
    """What the user sent."""

    def __init__(self, text: str, *, mode: str = "") -> None:
        prefix = "› " if not mode else f"› ({mode}) "
        super().__init__(Text(prefix + safe_text(text)), classes="user")


def compaction_text(event: ThreadCompacted) -> str:
    """The notice for a compaction: what fired it, and how much smaller the history got."""
    return (
        f"history compacted ({event.trigger}): {event.before_messages} → {event.after_messages} messages, "
        f"~{event.before_tokens:,} → {event.after_tokens:,} tokens"
    )


class NoticeEntry(Static):
    """A notice or an error line."""

    def __init__(self, text: str, *, error: bool = False, warning: bool = False, hint: str = "") -> None:
        shown = ("✗ " if error else "! " if warning else "· ") + safe_text(text)
        if hint:
            shown += "\n  " + safe_text(hint)
        super().__init__(Text(shown), classes="error" if error else "warning" if warning else "notice")


class AnswerEntry(Static):
    """An agent message, rendered as markdown while it streams.

    One widget per answer, repainted at most about ten times a second: a fast model cannot make the
    transcript fall behind (a widget per markdown block made layout cost grow with every paragraph).
    """

    def __init__(self) -> None:
        super().__init__("", classes="answer")
        self.received = ""
        self.completed = False
        self._dirty = False

    async def add(self, fragment: str) -> None:
        """Append a streamed fragment."""
        self.received += safe_text(fragment)
        if not self._dirty:
            self._dirty = True
            self.set_timer(0.08, self._paint)

    async def complete(self, text: str) -> None:
        """The whole message as the model sent it (replaces what was streamed)."""
        self.completed = True
        self.received = safe_text(text) or self.received
        self._paint()

    def _paint(self) -> None:
        self._dirty = False
        self.update(AnswerMarkdown(self.received))


class ReasoningEntry(Collapsible):
    """Reasoning, collapsed; its text grows while it streams."""

    def __init__(self) -> None:
        self.body = Static("", classes="reasoning-text")
        super().__init__(self.body, title="reasoning", collapsed=True, classes="reasoning")
        self.text = ""

    def add(self, fragment: str) -> None:
        """Append a streamed fragment."""
        self.text += safe_text(fragment)
        self.body.update(Text(self.text))

    def complete(self, text: str) -> None:
        """The final reasoning text."""
        self.text = safe_text(text) or self.text
        self.body.update(Text(self.text))


def command_output(text: str) -> str:
    """The command's own output: live items carry it raw, a finished one carries the tool's JSON result."""
    if text.startswith("{"):
        try:
            result = json.loads(text)
        except ValueError:
            return text
        if isinstance(result, dict):
            output = result.get("output")
            return output if isinstance(output, str) else str(result.get("error") or "")
    return text


def exit_text(code: int) -> str:
    """How a command ended, as a person says it: `exit 2`, or `killed (SIGTERM)` for a signal."""
    if code >= 0:
        return f"exit {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"killed ({name})"


def hidden_lines(output: str, result: str | None) -> int:
    """Lines of a finished command's output its card leaves out (the tail shown, and what the tool's
    result itself omitted from the middle)."""
    shown = output.rstrip("\n").count("\n") + 1 if output.strip() else 0
    omitted = 0
    if result and result.startswith("{"):
        try:
            value = json.loads(result).get("omitted_lines")
        except (ValueError, AttributeError):
            value = None
        if isinstance(value, int):
            # The tool cut the middle out and put one marker line there: that line is no output.
            omitted, shown = value, shown - 1
    return max(0, shown - LIVE_TAIL_LINES) + omitted


class CommandCard(ItemCard[CommandExecutionItem], can_focus=True):
    """A command: the command line, the tail of its live output, and how it ended.

    Click it (or focus it and press Enter) for the command's whole output from its spool.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "open_output", "full output", show=False)]

    @dataclass
    class OpenOutput(Message):
        """The user wants the whole output of command session `session_id`."""

        session_id: str
        command: str

    card_classes = "card command"

    def start(self, item: CommandExecutionItem) -> None:
        """Show the command's first state at once."""
        self.item = item
        self._dirty = False
        # For a command left running in the background: how its job ended, once it did.
        self.job_end: str | None = None
        self._show()

    @property
    def waits_for_its_job(self) -> bool:
        """Whether the command went on in the background and the card still says "running"."""
        item = self.item
        return (
            item.status == "completed" and item.exit_code is None and bool(item.session_id)
        ) and self.job_end is None

    def job_changed(self, job: Job | None) -> None:
        """The background job's state now (None: it ended and was collected)."""
        if job is not None and job.running:
            return
        if job is None or job.exit_code is None:
            self.job_end = "ended"
        else:
            self.job_end = exit_text(job.exit_code)
        self._show()

    def change(self, item: CommandExecutionItem) -> None:
        """A newer state of the item; repainted at most a few times a second under heavy output."""
        if self.item.status != "in_progress" and item.status == "in_progress":
            # A progress report that was on its way when the command finished: the end stays shown.
            return
        self.item = item
        if item.status != "in_progress":
            self._show()
        elif not self._dirty:
            self._dirty = True
            self.set_timer(0.1, self._show)

    def _show(self) -> None:
        self._dirty = False
        item = self.item
        lines = [Text("$ " + safe_text(item.command).replace("\n", " ⏎ "), style="bold")]
        everything = safe_text(command_output(item.aggregated_output))
        output = tail_lines(everything, LIVE_TAIL_LINES)
        hidden = hidden_lines(everything, item.result) if item.status != "in_progress" else 0
        if hidden and item.session_id:
            lines.append(Text(f"  … {hidden:,} lines hidden (click or Enter: the full output)", style="cyan"))
        if output:
            lines += [Text(line, style="dim") for line in output.split("\n")]
        if item.status == "declined":
            lines.append(Text("  not run: not approved", style="yellow"))
        elif item.status == "failed" and item.exit_code is None:
            lines.append(Text("  failed", style="red"))
        elif item.exit_code is not None:
            style = "green" if item.exit_code == 0 else "red"
            lines.append(Text(f"  {exit_text(item.exit_code)}", style=style))
        elif self.job_end is not None:
            style = "green" if self.job_end == "exit 0" else "red"
            lines.append(Text(f"  {self.job_end} (in the background)", style=style))
        else:
            lines.append(Text("  running…", style="cyan"))
        # One row per line, cut to the width with an ellipsis, and the height set from the line count: a
        # size change that only the content knows about could leave the card laid out at its old height.
        width = max(8, (self.content_size.width or self.app.size.width - 6) - 1)
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        self.styles.height = len(lines)
        self.update(Text("\n").join(lines))

    def on_resize(self) -> None:
        """Cut the lines again for the new width."""
        self._show()

    def on_click(self) -> None:
        """Open the full output."""
        self.action_open_output()

    def action_open_output(self) -> None:
        """Ask the app to show the whole output (commands that ran in a session have a spool)."""
        if self.item.session_id:
            self.post_message(self.OpenOutput(self.item.session_id, self.item.command))


class FileChangeCard(ItemCard[FileChangeItem]):
    """An edit: the files it touched, coloured by kind, with their diffs; or what it would have touched
    and why it did not."""

    card_classes = "card edit"

    def change(self, item: FileChangeItem) -> None:
        """Show `item`."""
        text = Text()
        for number, change in enumerate(item.changes):
            if number:
                text.append("\n")
            text.append_text(change_heading(change))
            if change.diff:
                text.append_text(coloured_diff(change.diff))
        if item.status != "completed":
            if not item.changes:
                title = tool_title(item.tool, "edit") if item.tool else "Edit"
                text.append(f"{title} {', '.join(safe_text(p) for p in item.paths)}".rstrip(), style="bold")
            label, style = _STATUS_WORDS[item.status]
            text.append(f"  ({label})", style=style)
            if item.message and item.status != "in_progress":
                text.append("\n  " + safe_text(item.message), style="dim")
        self.update(text)


# How an unfinished or refused call is labelled.
_STATUS_WORDS: dict[str, tuple[str, str]] = {
    "in_progress": ("waiting…", "cyan"),
    "failed": ("failed", "red"),
    "declined": ("not run", "yellow"),
    "completed": ("done", "green"),
}


class ToolLine(ItemCard[ToolCallItem]):
    """Any other tool call on one line: name, arguments, status."""

    card_classes = "card tool"

    def change(self, item: ToolCallItem) -> None:
        """Show `item`."""
        text = Text()
        text.append("• ", style="dim")
        text.append(item.name, style="bold")
        summary = argument_summary(item.arguments)
        if summary:
            text.append(" " + summary)
        if item.status == "in_progress":
            text.append("  …", style="cyan")
        elif item.status != "completed":
            label, style = _STATUS_WORDS[item.status]
            text.append(f"  ({label})", style=style)
            if item.result:
                text.append("\n  " + _first_line(safe_text(item.result)), style="dim")
        elif item.details:
            text.append(f"  {details_summary(item.details)}", style="dim")
        self.update(text)


def _first_line(text: str, width: int = 200) -> str:
    line = text.strip().split("\n")[0]
    return line if len(line) <= width else line[: width - 1] + "…"


def details_summary(details: dict[str, object]) -> str:
    """A read/list/search result in a few words, from the counts the tool reported."""
    match details:
        case {"offset": int(first), "end_line": int(last), "total_lines": int(total)}:
            return (
                f"lines {first}–{last} of {total:,}"
                if (first, last) != (1, total)
                else f"{total:,} line{'s' if total != 1 else ''}"
            )
        case {"matches": int(matches)}:
            return f"{matches:,} match{'es' if matches != 1 else ''}"
        case {"total": int(total)}:
            return f"{total:,} entr{'ies' if total != 1 else 'y'}"
    return ""


class Transcript(VerticalScroll):
    """The conversation so far; keeps the newest entry in view unless the user scrolled up."""

    def __init__(self) -> None:
        super().__init__(id="transcript")
        self._items: dict[str, Widget] = {}

    def clear(self) -> None:
        """Forget everything shown (another session takes over; item ids start again)."""
        self._items.clear()
        self.remove_children()

    async def add(self, entry: Widget) -> None:
        """Append an entry."""
        await self.mount(entry)
        self.anchor()

    async def show_item(self, item: Item) -> None:
        """An item started or changed: create or update its entry."""
        entry = self._items.get(item.id)
        match item:
            case AgentMessageItem():
                if entry is None:
                    await self._add_item(item.id, AnswerEntry())
            case ReasoningItem():
                if entry is None:
                    await self._add_item(item.id, ReasoningEntry())
            case CommandExecutionItem():
                await self._show_card(entry, item, CommandCard)
            case FileChangeItem():
                await self._show_card(entry, item, FileChangeCard)
            case ToolCallItem(name="task"):
                await self._show_card(entry, item, SubagentCard)
            case ToolCallItem():
                await self._show_card(entry, item, ToolLine)

    async def _show_card(
        self, entry: Widget | None, item: ShownItem, card: type[ItemCard[ShownItem]]
    ) -> None:
        """Change `item`'s card, or add one (in place of an entry of another kind)."""
        if isinstance(entry, card):
            entry.change(item)
        else:
            await self._add_item(item.id, card(item))

    async def _add_item(self, item_id: str, entry: Widget) -> None:
        """Append the entry that shows item `item_id` from now on."""
        self._items[item_id] = entry
        await self.add(entry)

    async def complete_item(self, item: Item) -> None:
        """An item finished."""
        await self.show_item(item)
        entry = self._items.get(item.id)
        if isinstance(entry, AnswerEntry) and isinstance(item, AgentMessageItem):
            await entry.complete(item.text)
        elif isinstance(entry, ReasoningEntry) and isinstance(item, ReasoningItem):
            entry.complete(item.text)
        if entry is not None:
            # The entry's final size is laid out once more after the repaint that showed it.
            entry.call_after_refresh(entry.refresh, layout=True)

    async def delta(self, item_id: str, kind: str, fragment: str) -> None:
        """A streamed fragment of an answer or of reasoning."""
        entry = self._items.get(item_id)
        if entry is None:
            item: Item = AgentMessageItem(id=item_id) if kind == "text" else ReasoningItem(id=item_id)
            await self.show_item(item)
            entry = self._items[item_id]
        if isinstance(entry, AnswerEntry):
            await entry.add(fragment)
        elif isinstance(entry, ReasoningEntry):
            entry.add(fragment)

    def open_job_cards(self) -> list[CommandCard]:
        """Cards of commands that went on in the background and are not known to have ended."""
        return [w for w in self._items.values() if isinstance(w, CommandCard) and w.waits_for_its_job]

    def plain_text(self) -> str:
        """The transcript as text (what a copy of the whole conversation would give)."""
        parts: list[str] = []
        for child in self.children:
            if isinstance(child, AnswerEntry):
                parts.append(child.received)
            elif isinstance(child, ReasoningEntry):
                parts.append("(thinking) " + child.text)
            elif isinstance(child, Static):
                parts.append(str(child.render()))
        return "\n".join(parts)
