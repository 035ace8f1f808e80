"""The status line: model, context pressure, running jobs, pending intents, session id."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from vtcode.core.pricing import format_cost
from vtcode.runtime.status import SessionStatus

# Short words for the status line (`/status` and `/permissions` name the modes in full).
_SANDBOX_WORDS = {"workspace-write": "sandboxed", "read-only": "sandbox read-only", "off": "no sandbox"}


def _elapsed(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole}s" if whole < 60 else f"{whole // 60}m {whole % 60:02d}s"


def _tokens(count: int) -> str:
    return f"{count / 1000:.1f}k" if count >= 1000 else str(count)


SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def status_text(
    status: SessionStatus, *, busy: bool, activity: str = "working", elapsed: float = 0.0
) -> Text:
    """One line for the bottom of the screen; while busy: a spinner, the time so far, how to stop."""
    text = Text()
    if status.paused:
        text.append(" paused ", style="reverse bold yellow")
    elif busy:
        frame = SPINNER[int(elapsed * 8) % len(SPINNER)]
        text.append(f" {frame} {activity} {_elapsed(elapsed)} ", style="reverse bold")
        text.append(" Esc to interrupt", style="dim")
    else:
        text.append(" ready ", style="reverse")
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
    if status.cost is None:
        text.append(" · $?", style="dim")
    elif status.cost > 0:
        text.append(f" · {format_cost(status.cost)}", style="dim")
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
        self._shown = Text()
        # Whether the line shows something that changes by itself (a spinner, running jobs): the app
        # keeps it current while it does.
        self.live = False

    def show(
        self, status: SessionStatus, *, busy: bool, activity: str = "working", elapsed: float = 0.0
    ) -> None:
        """Repaint with `status` (only when the line changed)."""
        text = status_text(status, busy=busy, activity=activity, elapsed=elapsed)
        self.live = busy or status.running_jobs > 0
        if text != self._shown:
            self._shown = text
            self.update(text)
