"""A trust question (MCP servers, hooks): a modal whose trusting keys arm only after a grace period."""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from vtcode.tui.approval import GRACE_SECONDS

AnswerT = TypeVar("AnswerT", bound=str)


class TrustScreen(ModalScreen[AnswerT], Generic[AnswerT]):
    """Shows `body()`; `trusted(answer)` dismisses with a trusting answer only once armed."""

    AUTO_FOCUS = None

    def __init__(self) -> None:
        super().__init__(classes="approval-screen")
        # Keys typed just as the dialog opened must not trust anything (as in the approval dialog).
        self.armed = False

    def on_mount(self) -> None:
        """Arm the trusting keys shortly after the dialog is shown."""
        self.set_timer(GRACE_SECONDS, self._arm)

    def _arm(self) -> None:
        self.armed = True

    def body(self) -> Text:
        """The question and what answers it."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        """The body in the dialog frame the approval dialog uses."""
        with Vertical(id="approval"):
            yield Static(self.body(), id="approval-body")

    def trusted(self, answer: AnswerT) -> None:
        """Dismiss with a trusting answer once armed; before that, only a bell."""
        if self.armed:
            self.dismiss(answer)
        else:
            self.app.bell()
