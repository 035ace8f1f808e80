"""How an edit looks on screen: each file with its kind and a coloured unified diff (bounded)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from vtcode.protocol.events import FileChange
from vtcode.tui.safe import safe_text

# Diff lines an approval dialog shows at most (it scrolls); the rest is counted, not drawn.
PREVIEW_MAX_LINES = 400

CHANGE_MARKS: dict[str, tuple[str, str]] = {
    "add": ("+", "green"),
    "delete": ("-", "red"),
    "update": ("~", "yellow"),
    "move": ("→", "cyan"),
}


def coloured_diff(diff: str, *, max_lines: int | None = None) -> Text:
    """A unified diff, added lines green, removed red, hunk headers cyan (file headers left out)."""
    text = Text()
    lines = [line for line in diff.splitlines() if not line.startswith(("--- ", "+++ "))]
    shown = lines if max_lines is None else lines[:max_lines]
    for line in shown:
        style = "green" if line.startswith("+") else "red" if line.startswith("-") else ""
        style = "cyan" if line.startswith("@@") else style
        text.append("\n")
        text.append(safe_text(line), style=style or "dim")
    if len(shown) < len(lines):
        text.append(f"\n… {len(lines) - len(shown)} more diff lines not shown", style="yellow")
    return text


def change_heading(change: FileChange) -> Text:
    """`~ path` (or `→ old → new`), coloured by the kind of change."""
    mark, style = CHANGE_MARKS[change.kind]
    target = f" → {change.move_to}" if change.move_to else ""
    return Text(f"{mark} {safe_text(change.path)}{safe_text(target)}", style=style)


def preview_text(changes: Sequence[FileChange]) -> Text:
    """What an edit approval shows: every file and its diff, at most `PREVIEW_MAX_LINES` diff lines."""
    text = Text()
    budget = PREVIEW_MAX_LINES
    for number, change in enumerate(changes):
        if number:
            text.append("\n")
        text.append_text(change_heading(change))
        if change.diff:
            text.append_text(coloured_diff(change.diff, max_lines=max(budget, 0)))
            budget -= change.diff.count("\n") + 1
        elif change.kind != "delete":
            text.append("\n(no diff: a binary or large file)", style="dim")
    return text
