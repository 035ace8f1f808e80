"""The plan above the composer: the agent's steps, the current one highlighted (Ctrl+T hides it).

It shows what the session's `plan.updated` events (and, on resume, `Session.plan`) say; once every step
is done it folds to one line, so a finished plan does not linger on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.widgets import Static

from vtcode.core.plan import all_done, steps_word
from vtcode.protocol.plan import Plan, PlanStep
from vtcode.tui.safe import safe_text

# Step rows shown at most; a longer plan shows the rows around the current step.
MAX_ROWS = 5
_MARKS = {"completed": "✓", "in_progress": "▶", "pending": "○", "cancelled": "⊘"}
_STYLES = {"completed": "dim", "in_progress": "bold reverse", "pending": "", "cancelled": "dim strike"}


def visible_rows(steps: Sequence[PlanStep], limit: int = MAX_ROWS) -> tuple[int, int]:
    """The [start, end) of the steps shown: the current step with the one before it when they do not fit."""
    if len(steps) <= limit:
        return 0, len(steps)
    current = next(
        (i for i, s in enumerate(steps) if s.status == "in_progress"),
        next((i for i, s in enumerate(steps) if s.status == "pending"), len(steps) - 1),
    )
    start = max(0, min(current - 1, len(steps) - limit))
    return start, start + limit


def plan_text(plan: Plan) -> Text:
    """What the panel shows of `plan` (empty for no plan)."""
    steps = plan.steps
    text = Text(no_wrap=True, overflow="ellipsis")
    if not steps:
        return text
    if all_done(plan):
        text.append(f"✓ plan done ({steps_word(len(steps))})", style="dim")
        return text
    done = sum(1 for s in steps if s.status in ("completed", "cancelled"))
    text.append("Plan", style="bold")
    text.append(f" {done}/{len(steps)} done", style="dim")
    start, end = visible_rows(steps)
    if end - start < len(steps):
        text.append(f" · steps {start + 1}-{end} shown", style="dim")
    text.append(" · Ctrl+T hides", style="dim")
    for step in steps[start:end]:
        line = " ".join(safe_text(step.step).split())
        text.append("\n")
        text.append(f"{_MARKS[step.status]} ", style="bold" if step.status == "in_progress" else "dim")
        text.append(line, style=_STYLES[step.status])
    return text


class PlanPanel(Static):
    """The agent's plan, above the composer; hidden while there is none or the user hid it."""

    DEFAULT_CSS: ClassVar[str] = """
    PlanPanel {
        height: auto;
        max-height: 7;
        padding: 0 1;
        border-top: solid $secondary;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="plan")
        self.plan = Plan()
        self.hidden = False
        self.display = False

    def show_plan(self, plan: Plan) -> None:
        """Show `plan` (the whole, new plan)."""
        self.plan = plan
        self._repaint()

    def toggle(self) -> None:
        """Hide the panel, or show it again."""
        self.hidden = not self.hidden
        self._repaint()

    def _repaint(self) -> None:
        self.update(plan_text(self.plan))
        self.display = bool(self.plan.steps) and not self.hidden
