"""The composer: always editable, also while a turn runs; Enter queues, Alt+Enter / Ctrl+S steer.

Ctrl+J (and Shift+Enter where the terminal reports it) inserts a newline; a bracketed paste is inserted
and never sends; Up/Down on the first/last line walk the history; Tab after `@` completes a path, after
`$` a skill's name.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import events
from textual.message import Message
from textual.widgets import TextArea

from vtcode.core.mentions import mention_text
from vtcode.protocol.ops import InputMode
from vtcode.tui.commands import matching_commands
from vtcode.tui.slash_menu import SlashMenu

if TYPE_CHECKING:
    from vtcode.tui.skills_view import MenuEntry

PathCompleter = Callable[[str], list[str]]


class Composer(TextArea):
    """A multi-line input that posts `Composer.Submitted` instead of inserting a newline on Enter."""

    @dataclass
    class Submitted(Message):
        """The user sent `text` in `mode`."""

        text: str
        mode: InputMode

    @dataclass
    class PickFile(Message):
        """The user wants to choose a file for the `@query` word before the cursor."""

        query: str

    def insert_file(self, path: str) -> None:
        """Replace the `@word` before the cursor with `@path ` (a file chosen in the picker), quoted
        when the path has spaces so it reads back as one path."""
        row, column = self.cursor_location
        typed = _typed_mention(self.document.get_line(row)[:column])
        if typed is None:
            self.insert(f"{mention_text(path)} ")
            return
        self.replace(f"{mention_text(path)} ", (row, typed[0]), (row, column))

    def __init__(self, complete: PathCompleter | None = None) -> None:
        super().__init__(
            "",
            id="composer",
            soft_wrap=True,
            tab_behavior="focus",
            show_line_numbers=False,
            compact=True,
            placeholder="Ask vtcode…  (Enter send · Alt+Enter/Ctrl+S steer · Ctrl+J newline · /help)",
        )
        self._complete = complete
        # Built-ins, skills and custom commands with their source and argument hint (the `/` menu).
        self.menu: Callable[[], list[MenuEntry]] | None = None
        self.sent: list[str] = []
        self._browsing: int | None = None
        self._draft = ""
        self.completions: list[str] = []
        # Shown above the composer while a command name is typed (the app lays it out).
        self.slash_menu = SlashMenu()
        # When the user last typed here (monotonic): an approval dialog waits until typing stops.
        self.typed_at = float("-inf")

    def keep_draft(self) -> None:
        """Clear the composer, keeping its text in the input history (Up brings it back)."""
        text = self.text
        if text.strip() and (not self.sent or self.sent[-1] != text):
            self.sent.append(text)
        self._browsing = None
        self.clear()

    def take_key(self, key: str, character: str | None) -> None:
        """A key typed while a dialog was on top: handled as if it had been typed here."""
        self.typed_at = time.monotonic()
        if key in ("enter", "ctrl+s"):
            self._send("queue" if key == "enter" else "steer")
        elif key in ("ctrl+j", "shift+enter", "newline"):
            self.insert("\n")
        elif key == "backspace":
            self.action_delete_left()
        elif character is not None and character.isprintable():
            self.insert(character)

    async def _on_key(self, event: events.Key) -> None:
        self.typed_at = time.monotonic()
        key = event.key
        if key in ("enter", "alt+enter", "ctrl+s"):
            event.stop()
            event.prevent_default()
            self._send("queue" if key == "enter" else "steer")
            return
        if key in ("ctrl+j", "shift+enter", "newline"):
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        if self.slash_menu.display and key in ("up", "down", "tab", "escape"):
            event.stop()
            event.prevent_default()
            if key == "escape":
                self.slash_menu.hide()
            elif key == "tab":
                self._take_menu_choice()
            else:
                self.slash_menu.move(-1 if key == "up" else 1)
            return
        if key == "tab":
            # Tab never leaves the composer by surprise (typed keys would go elsewhere): it completes,
            # or goes to pending input when there is some, or does nothing.
            event.stop()
            event.prevent_default()
            if not self._complete_at_cursor() and not self._focus_pending():
                self.app.bell()
            return
        if key == "up" and self.cursor_location[0] == 0 and self._recall(-1):
            event.stop()
            event.prevent_default()
            return
        if key == "down" and self.cursor_location[0] == self.document.line_count - 1 and self._recall(1):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    def on_text_area_changed(self, _: TextArea.Changed) -> None:
        """Show the `/` menu while a command name is typed at the start (not for recalled history)."""
        text = self.text
        typing_name = (
            text.startswith("/") and not text.startswith("//") and not any(c.isspace() for c in text)
        )
        if not typing_name or self._browsing is not None:
            self.slash_menu.hide()
            return
        entries = self.menu() if self.menu is not None else []
        if not entries:
            from vtcode.tui.skills_view import MenuEntry

            entries = [MenuEntry(name, "", "built-in") for name in matching_commands("")]
        self.slash_menu.show(entries, text[1:])

    def _take_menu_choice(self) -> None:
        """Tab in the `/` menu: the names' common start when that adds to what is typed, else the
        highlighted command, followed by a space for its arguments."""
        menu = self.slash_menu
        self.completions = list(menu.names)
        typed = self.text[1:]
        common = _common_prefix(menu.names) if menu.names else ""
        if not menu.moved and len(menu.names) > 1 and len(common) > len(typed):
            self.insert(common[len(typed) :])
            return
        name = menu.chosen()
        menu.hide()
        if name is not None:
            self.load_text(f"/{name} ")
            self.move_cursor(self.document.end)

    def _send(self, mode: InputMode) -> None:
        text = self.text
        if not text.strip():
            return
        chosen = self.slash_menu.chosen()
        if chosen is not None and text[1:] not in self.slash_menu.names:
            text = f"/{chosen}"  # Enter in the `/` menu runs the highlighted command, as in Claude Code
        if not self.sent or self.sent[-1] != text:
            self.sent.append(text)
        self._browsing = None
        self.clear()
        self.post_message(self.Submitted(text, mode))

    def _recall(self, step: int) -> bool:
        """Show the previous (-1) or next (+1) history entry; False when there is none to show."""
        if not self.sent:
            return False
        if self._browsing is None:
            if step > 0:
                return False
            self._draft = self.text
            index = len(self.sent) - 1
        else:
            index = self._browsing + step
        if index < 0:
            return True
        if index >= len(self.sent):
            self._browsing = None
            self.load_text(self._draft)
        else:
            self._browsing = index
            self.load_text(self.sent[index])
        self.move_cursor(self.document.end)
        return True

    def _focus_pending(self) -> bool:
        """Move to the pending-input list when it shows anything."""
        for widget in self.screen.query("#pending"):
            if widget.display and widget.focusable:
                widget.focus()
                return True
        return False

    def _complete_command(self) -> bool:
        """Complete a `/command` name being typed at the start; False when the text is not one."""
        row, column = self.cursor_location
        before = self.document.get_line(row)[:column]
        if row != 0 or not before.startswith("/") or " " in before or before.startswith("//"):
            return False
        entries = self.menu() if self.menu is not None else []
        labels = {e.name: e.label() for e in entries if e.name.startswith(before[1:].lower())}
        found = list(labels) if entries else matching_commands(before[1:])
        self.completions = found
        if not found:
            self.app.bell()
        elif len(found) == 1:
            self.insert(found[0][len(before) - 1 :] + " ")
        else:
            common = _common_prefix(found)
            if len(common) > len(before) - 1:
                self.insert(common[len(before) - 1 :])
            else:
                shown = "\n".join(labels.get(name, f"/{name}") for name in found)
                self.notify(shown, title="commands", timeout=6, markup=False)
        return True

    def _complete_skill(self) -> bool:
        """Complete a `$skill` name before the cursor (Codex's skill mention); False when not after one."""
        row, column = self.cursor_location
        before = self.document.get_line(row)[:column]
        word = before.rsplit(maxsplit=1)[-1] if before.strip() and not before[-1].isspace() else ""
        if not word.startswith("$") or self.menu is None:
            return False
        skills = sorted(e.name for e in self.menu() if e.source.startswith("skill"))
        found = [name for name in skills if name.startswith(word[1:])]
        if not found:
            return False
        self.completions = found
        common = _common_prefix(found)
        if len(found) == 1:
            self.insert(common[len(word) - 1 :] + " ")
        elif len(common) > len(word) - 1:
            self.insert(common[len(word) - 1 :])
        else:
            self.notify("  ".join(f"${name}" for name in found[:20]), title="skills", timeout=6, markup=False)
        return True

    def _complete_at_cursor(self) -> bool:
        """Complete the `@path` word before the cursor; False when the cursor is not after one."""
        if self._complete_command() or self._complete_skill():
            return True
        if self._complete is None:
            return False
        row, column = self.cursor_location
        typed = _typed_mention(self.document.get_line(row)[:column])
        if typed is None:
            return False
        start, prefix = typed
        found = self._complete(prefix)
        self.completions = found
        if len(found) != 1:
            # Nothing or several starting so: the picker searches the whole workspace.
            self.post_message(self.PickFile(prefix))
            return True
        path = found[0]
        if path.endswith("/"):
            # A folder: typing goes on inside it, so a quote stays open (`@"my docs/`).
            text = mention_text(path)
            text = text[:-1] if text.endswith(('"', "'")) else text
        else:
            text = f"{mention_text(path)} "
        self.replace(text, (row, start), (row, column))
        return True


def _typed_mention(before: str) -> tuple[int, str] | None:
    """Where the `@path` being typed at the end of `before` starts, and the path typed so far; an
    open quote (`@"my do`) keeps spaces in it."""
    quoted = max(before.rfind('@"'), before.rfind("@'"))
    if quoted >= 0 and (quoted == 0 or before[quoted - 1].isspace()):
        inside = before[quoted + 2 :]
        if before[quoted + 1] not in inside:
            return quoted, inside
    if not before.strip() or before[-1].isspace():
        return None
    word = before.rsplit(maxsplit=1)[-1]
    if not word.startswith("@"):
        return None
    return len(before) - len(word), word[1:]


def _common_prefix(words: list[str]) -> str:
    common = words[0]
    for word in words[1:]:
        while not word.startswith(common):
            common = common[:-1]
    return common
