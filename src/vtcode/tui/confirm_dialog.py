"""The confirmation dialog: a modal question whose answering keys arm only after a grace period.

One frame serves every question that needs a person: tool-call approvals, the MCP-server and hook trust
questions. Keys typed just as a dialog opens were meant for something else and must not answer it; a
stall of the app is no pause either (`quiet_clock`).
"""

from __future__ import annotations

import time
from typing import ClassVar, Generic, TypeVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from vtcode.tui.quiet_clock import TICK_SECONDS, QuietClock

# The dialog answers nothing until this long after it showed (and, for approvals, after the last key).
GRACE_SECONDS = 0.8

AnswerT = TypeVar("AnswerT")


class ConfirmDialog(ModalScreen[AnswerT], Generic[AnswerT]):
    """Shows `body()` and then `details()` in the approval frame; `armed` turns on after the grace period."""

    # Keys answer at once: nothing takes focus unless a dialog asks for text.
    AUTO_FOCUS = None
    # A question longer than the screen scrolls (its answering keys stay docked below it).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_question('scroll_up')", show=False),
        Binding("down", "scroll_question('scroll_down')", show=False),
        Binding("pageup", "scroll_question('scroll_page_up')", show=False),
        Binding("pagedown", "scroll_question('scroll_page_down')", show=False),
    ]

    def __init__(self) -> None:
        super().__init__(classes="approval-screen")
        self.armed = False
        # Answered: keys that were already on their way to the dialog answer nothing more.
        self.answered = False

    def on_mount(self) -> None:
        """Arm the answering keys a moment after the dialog shows (a stall of the app does not count)."""
        self._quiet = QuietClock(time.monotonic())
        self.set_interval(TICK_SECONDS, self._tick)

    def _tick(self) -> None:
        if self._quiet.tick(time.monotonic()) >= GRACE_SECONDS and not self.armed:
            self.armed = True
            self.armed_changed()

    def disarm(self) -> None:
        """A key that was typed, not answered: wait for the grace period again."""
        self.armed = False
        self._quiet.key(time.monotonic())
        self.armed_changed()

    def action_scroll_question(self, how: str) -> None:
        """Scroll the question: `how` names the scroll method (`scroll_up`, `scroll_page_down`...)."""
        getattr(self.query_one("#approval", VerticalScroll), how)(animate=False)

    def armed_changed(self) -> None:
        """Called when `armed` changed; a dialog whose hint depends on it updates it here."""

    def body(self) -> Text:
        """The question."""
        raise NotImplementedError

    def details(self) -> ComposeResult:
        """Widgets shown below the question (none by default)."""
        yield from ()

    def compose(self) -> ComposeResult:
        """The question and its details in the dialog frame."""
        with VerticalScroll(id="approval"):
            yield Static(self.body(), id="approval-body")
            yield from self.details()

    def answer(self, answer: AnswerT) -> None:
        """Dismiss with `answer`, once: a second dismiss would close the screen below the dialog."""
        if not self.answered:
            self.answered = True
            self.dismiss(answer)

    def withdraw(self) -> None:
        """Close without an answer (the question was settled elsewhere), unless already answered."""
        if not self.answered:
            self.answered = True
            self.dismiss(None)

    def answer_when_armed(self, answer: AnswerT) -> None:
        """Dismiss with `answer` once armed; before that, only a bell."""
        if self.armed:
            self.answer(answer)
        else:
            self.app.bell()

    # Bindings name their answer, `grant('always')` or `decline('no')`; Textual passes it as a string.

    def action_grant(self, answer: str) -> None:
        """A key that grants something answers only once the dialog is armed."""
        self.answer_when_armed(cast(AnswerT, answer))

    def action_decline(self, answer: str) -> None:
        """A key that declines answers at once: refusing is always safe."""
        self.answer(cast(AnswerT, answer))
