"""Unified diffs of file edits, for people (front ends), bounded so a huge rewrite stays readable."""

from __future__ import annotations

import difflib

MAX_DIFF_LINES = 400


def unified_diff(path: str, old: str, new: str, *, max_lines: int = MAX_DIFF_LINES) -> str:
    """The unified diff from `old` to `new` (3 lines of context), cut after `max_lines` with a marker."""
    lines = list(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"a/{path}" if old else "/dev/null",
            tofile=f"b/{path}" if new else "/dev/null",
        )
    )
    shown = [line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines]
    if len(shown) > max_lines:
        shown = [*shown[:max_lines], f"… {len(shown) - max_lines} more diff lines\n"]
    return "".join(shown)
