"""The approval modal: allow once, allow for the session, or deny with a reason."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from vtcode.protocol.events import ApprovalDecision, ApprovalRequested
from vtcode.protocol.ops import ApprovalAnswer
from vtcode.tui.safe import safe_text

# Seconds after the dialog opens before `y` and `a` count.
ARM_SECONDS = 0.4


def session_choice(request: ApprovalRequested) -> tuple[ApprovalDecision, str]:
    """The "allow for the session" decision a request offers, and how it is described."""
    if request.kind == "command" and request.session_prefix:
        return "allow_prefix", f"commands starting with `{safe_text(request.session_prefix)}`"
    return "allow_tool", f"every {safe_text(request.tool)} call"


class ApprovalScreen(ModalScreen[ApprovalAnswer]):
    """Asks about one tool call; dismissed with the answer to submit."""

    # Keys answer at once: nothing takes focus until `n` asks for a reason.
    AUTO_FOCUS = None
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "allow_once", "allow once"),
        Binding("a", "allow_session", "allow for the session"),
        Binding("n", "deny_with_reason", "deny…"),
        Binding("escape", "deny", "deny"),
    ]

    def __init__(self, request: ApprovalRequested) -> None:
        super().__init__(classes="approval-screen")
        self.request = request
        # Keys typed into the composer just as the dialog opened must not allow anything: the allowing
        # keys work only after a moment (denying ones at once).
        self.armed = False

    def on_mount(self) -> None:
        """Arm the allowing keys shortly after the dialog is shown."""
        self.set_timer(ARM_SECONDS, self._arm)

    def _arm(self) -> None:
        self.armed = True

    def _may_allow(self) -> bool:
        if not self.armed:
            self.app.bell()
        return self.armed

    def compose(self) -> ComposeResult:
        """The question, the call, and the keys that answer it."""
        request = self.request
        _, scope = session_choice(request)
        body = Text()
        body.append(f"Allow {safe_text(request.tool)}?\n", style="bold")
        body.append(safe_text(request.display) + "\n", style="reverse")
        if request.reason:
            body.append(safe_text(request.reason) + "\n", style="dim")
        body.append("\n[y] allow once   ", style="green")
        body.append(f"[a] allow {scope} for this session\n", style="green")
        body.append("[n] deny with a reason   [Esc] deny", style="red")
        with Vertical(id="approval"):
            yield Static(body, id="approval-body")

    def _answer(self, decision: ApprovalDecision, reason: str = "") -> None:
        self.dismiss(ApprovalAnswer(self.request.request_id, decision, reason))

    def action_allow_once(self) -> None:
        """Allow this call only."""
        if self._may_allow():
            self._answer("allow_once")

    def action_allow_session(self) -> None:
        """Allow this call and the like of it for the rest of the session."""
        if self._may_allow():
            self._answer(session_choice(self.request)[0])

    def action_deny(self) -> None:
        """Deny without a reason."""
        self._answer("deny")

    async def action_deny_with_reason(self) -> None:
        """Ask for the reason, then deny."""
        if self.query("#deny-reason"):
            return
        field = Input(placeholder="why not? (Enter denies with this reason)", id="deny-reason")
        await self.query_one("#approval", Vertical).mount(field)
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Deny with the reason typed."""
        self._answer("deny", event.value.strip())
