"""Full-screen views: the setup screen, read-only text (`/help`, `/status`, `/memory`), pickers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from vtcode.store.meta import SessionInfo
from vtcode.tui.safe import safe_text

ResultT = TypeVar("ResultT")

SETUP_TEXT = """\
vtcode needs a model provider to start a session. Any one of:

  export OPENAI_API_KEY=...     (or ANTHROPIC_API_KEY, GEMINI_API_KEY)
  a local Ollama server         (found on localhost:11434)
  vtcode --provider openai --base-url http://localhost:8000/v1 --model NAME

or in {config_file}:

  [agent]
  provider = "anthropic"
  model = "claude-sonnet-4-5"

then start vtcode again (`vtcode exec` needs the same).  q leaves."""


class SetupScreen(Screen[None]):
    """Shown instead of a session when none can be opened (no provider, unknown session)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,escape", "app.quit", "quit")]

    def __init__(self, problem: str, hint: str, *, configure: bool, config_file: str = "") -> None:
        super().__init__(id="setup")
        self.config_file = config_file
        self.problem = problem
        self.hint = hint
        self.configure = configure

    def compose(self) -> ComposeResult:
        """The problem, the hint, and (for a provider problem) how to configure one."""
        text = Text()
        text.append(f"✗ {safe_text(self.problem)}\n", style="bold red")
        if self.hint:
            text.append(f"  {safe_text(self.hint)}\n", style="yellow")
        text.append("\n")
        where = self.config_file or "~/.vtcode/vtcode.toml"
        text.append(SETUP_TEXT.format(config_file=safe_text(where)) if self.configure else "q leaves.")
        with VerticalScroll():
            yield Static(text, id="setup-text")


class PanelScreen(ModalScreen[ResultT]):
    """A title and a scrollable body over the transcript, with an optional line of keys under it."""

    # What the screen's keys do, shown dimmed under the body (empty: nothing shown).
    KEYS_TEXT: ClassVar[str] = ""

    def __init__(self, title: str, body: str | Text) -> None:
        super().__init__(classes="text-screen")
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        """A title, the scrollable body and the keys."""
        with VerticalScroll(classes="panel"):
            yield Static(Text(self.title_text, style="bold"), classes="panel-title")
            body = self.body if isinstance(self.body, Text) else Text(safe_text(self.body))
            yield Static(body, classes="panel-body")
            if self.KEYS_TEXT:
                yield Static(Text(self.KEYS_TEXT, style="dim"))


class TextScreen(PanelScreen[None]):
    """Read-only text over the transcript; Esc or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "dismiss", "close")]

    async def action_dismiss(self, result: None = None) -> None:
        """Close."""
        self.dismiss(result)


def _when(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


class ChoiceScreen(ModalScreen[str | None]):
    """Choose one line; dismissed with its id, or None on Esc. The first line starts highlighted."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(
        self, title: str, choices: Sequence[tuple[str, str | Text]], *, list_id: str | None = None
    ) -> None:
        super().__init__(classes="text-screen")
        self.title_text = title
        self.choices = list(choices)
        self._list_id = list_id

    def compose(self) -> ComposeResult:
        """The title and one option per choice (plain labels are made safe to show)."""
        options = [
            Option(safe_text(label) if isinstance(label, str) else label, id=key)
            for key, label in self.choices
        ]
        with VerticalScroll(classes="panel"):
            yield Static(Text(self.title_text, style="bold"))
            yield OptionList(*options, id=self._list_id)

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


class SessionPicker(ChoiceScreen):
    """Choose a stored session to resume, most recent first; dismissed with its id, or None."""

    def __init__(self, sessions: list[SessionInfo], workspace: str) -> None:
        choices: list[tuple[str, str | Text]] = []
        for info in sessions:
            label = Text()
            label.append(f"{info.id[:8]}  {_when(info.updated_at)}  {info.turns:>3} turns  ")
            label.append(safe_text(info.title) or "(untitled)", style="bold")
            if info.workspace != workspace:
                label.append(f"  {safe_text(info.workspace)}", style="dim")
            choices.append((info.id, label))
        super().__init__("Resume a session  (Enter opens, Esc cancels)", choices, list_id="session-list")
        self.sessions = sessions
        self.workspace = workspace
