"""The status line: model, context pressure, running jobs, pending intents, session id."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from vtcode.runtime.status import SessionStatus

# Short words for the status line (`/status` and `/permissions` name the modes in full).
_SANDBOX_WORDS = {"workspace-write": "sandboxed", "read-only": "sandbox read-only", "off": "no sandbox"}


def _tokens(count: int) -> str:
    return f"{count / 1000:.1f}k" if count >= 1000 else str(count)


def status_text(status: SessionStatus, *, busy: bool) -> Text:
    """One line for the bottom of the screen."""
    text = Text()
    if status.paused:
        text.append(" paused ", style="reverse bold yellow")
    else:
        text.append(" working " if busy else " ready ", style="reverse bold" if busy else "reverse")
    text.append(f" {status.model}")
    if status.approval_mode:
        text.append(
            f" · {status.approval_mode}", style="yellow" if status.approval_mode == "full-auto" else ""
        )
    if status.sandbox_mode:
        sandbox = _SANDBOX_WORDS.get(status.sandbox_mode, f"sandbox {status.sandbox_mode}")
        text.append(f" · {sandbox}", style="red" if status.sandbox_mode == "off" else "dim")
    if status.grants:
        text.append(f" · {len(status.grants)} granted", style="yellow")
    pressure = status.pressure
    soft, hard = status.thresholds.soft, status.thresholds.hard
    planned = soft is not None and status.context_tokens >= soft
    style = "red" if pressure >= 1 else "yellow" if planned else ""
    limit = _tokens(hard) if hard is not None else "?"
    text.append(f" · ctx {_tokens(status.context_tokens)}/{limit}", style=style)
    text.append(f" ({pressure:.0%})", style=style)
    if status.running_jobs:
        text.append(f" · jobs {status.running_jobs}", style="cyan")
    if status.pending_intents:
        text.append(f" · pending {status.pending_intents}", style="cyan")
    text.append(f" · {status.session_id[:8]}", style="dim")
    return text


class StatusLine(Static):
    """Shows the latest `SessionStatus`."""

    def __init__(self) -> None:
        super().__init__(Text(" starting…"), id="status")

    def show(self, status: SessionStatus, *, busy: bool) -> None:
        """Repaint with `status`."""
        self.update(status_text(status, busy=busy))
