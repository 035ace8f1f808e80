"""The approval modal: allow once, allow for the session, or deny with a reason.

Keys meant for the composer never answer it. The app opens it only once the user has stopped typing
(`TYPING_QUIET_SECONDS`); once shown, it takes no answer until no key has come for the confirmation
dialog's grace period, and keys that come before go on to the composer as typed. "Allow for the
session" is Ctrl+A, a chord that running text cannot contain; `y` (once) and `n` (deny with a reason)
count only when the dialog is armed.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from vtcode.protocol.events import ApprovalDecision, ApprovalRequested
from vtcode.protocol.ops import ApprovalAnswer
from vtcode.tui.composer import Composer
from vtcode.tui.confirm_dialog import ConfirmDialog
from vtcode.tui.edit_preview import preview_text
from vtcode.tui.safe import safe_text
from vtcode.tui.tool_names import tool_title

# The app shows a waiting approval only after the composer has had no key for this long.
TYPING_QUIET_SECONDS = 1.0
SESSION_KEY = "ctrl+a"
# Keys that scroll the question (in a small terminal it does not fit), with the scroll method each calls.
_SCROLL_KEYS = {
    "up": "scroll_up",
    "down": "scroll_down",
    "pageup": "scroll_page_up",
    "pagedown": "scroll_page_down",
}


def session_choice(request: ApprovalRequested) -> tuple[ApprovalDecision, str]:
    """The "allow for the session" decision a request offers, and how it is described."""
    if request.tool == "web_fetch" and request.session_prefix:
        return "allow_prefix", f"fetches from {safe_text(request.session_prefix)}"
    if request.kind == "command" and request.session_prefix:
        return "allow_prefix", f"commands starting with `{safe_text(request.session_prefix)}`"
    return "allow_tool", f"every {safe_text(request.tool)} call"


class ApprovalScreen(ConfirmDialog[ApprovalAnswer]):
    """Asks about one tool call; dismissed with the answer to submit."""

    # Nothing takes focus until `n` asks for a reason.
    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(self, request: ApprovalRequested, composer: Composer | None = None) -> None:
        super().__init__()
        self.request = request
        self.composer = composer
        # Keys that reached the composer instead of the dialog (tests and the hint read it).
        self.passed_on = 0

    def armed_changed(self) -> None:
        """The keys hint says whether keys answer yet."""
        self.query_one("#approval-keys", Static).update(self._keys_text())

    def body(self) -> Text:
        """The question and the call."""
        request = self.request
        head = Text()
        head.append(f"{tool_title(request.tool, request.kind)}?\n", style="bold")
        head.append(safe_text(request.display), style="reverse")
        if request.reason:
            head.append("\n" + safe_text(request.reason), style="dim")
        return head

    def details(self) -> ComposeResult:
        """The diff of an edit, and the keys that answer."""
        if self.request.changes:
            with VerticalScroll(id="approval-preview"):
                yield Static(preview_text(self.request.changes), id="approval-diff")
        yield Static(self._keys_text(), id="approval-keys")

    def _keys_text(self) -> Text:
        _, scope = session_choice(self.request)
        keys = Text()
        keys.append("[y] allow once   ", style="green")
        keys.append(f"[Ctrl+A] allow {scope} for this session\n", style="green")
        keys.append("[n] deny with a reason   [Esc] deny", style="red")
        if not self.armed:
            keys.append(
                "\n(keys typed now go to your message; the dialog answers once you pause)", style="dim"
            )
        return keys

    def _answer(self, decision: ApprovalDecision, reason: str = "") -> None:
        self.answer(ApprovalAnswer(self.request.request_id, decision, reason))

    async def on_key(self, event: events.Key) -> None:
        """Answer with a deliberate key; anything typed before the dialog is armed goes to the composer."""
        if self.query("#deny-reason"):
            if event.key == "escape":
                event.stop()
                self._answer("deny")
            return
        key = event.key
        if key in ("ctrl+c", "ctrl+q"):
            return
        event.stop()
        event.prevent_default()
        if key == "escape":
            self._answer("deny")
        elif not self.armed:
            self._pass_on(event)
        elif key in _SCROLL_KEYS:
            # A small terminal shows part of the question: these read the rest, answering nothing.
            getattr(self.query_one("#approval", VerticalScroll), _SCROLL_KEYS[key])(animate=False)
        elif key == SESSION_KEY:
            self._answer(session_choice(self.request)[0])
        elif key == "y":
            self._answer("allow_once")
        elif key == "n":
            await self._ask_reason()
        elif key == "a":
            self.notify("Ctrl+A allows for the session (a plain `a` could be typing)", timeout=3)
        else:
            self.app.bell()

    def _pass_on(self, event: events.Key) -> None:
        """Give a key typed too early to the composer, as if the dialog had not been there."""
        self.disarm()
        composer = self.composer
        if composer is None:
            return
        self.passed_on += 1
        composer.take_key(event.key, event.character)

    async def _ask_reason(self) -> None:
        field = Input(placeholder="why not? (Enter denies with this reason, Esc without)", id="deny-reason")
        # The field says what Enter and Esc do now; the answering keys would only crowd it out.
        self.query_one("#approval-keys", Static).display = False
        await self.query_one("#approval", VerticalScroll).mount(field)
        field.focus()
        # In a small terminal the field lands below a scrolled question: bring it into view once laid out.
        self.call_after_refresh(field.scroll_visible, animate=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Deny with the reason typed."""
        self._answer("deny", event.value.strip())
