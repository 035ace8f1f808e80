"""Unified diffs (what file_change items carry) as the old/new text pairs ACP diff content wants."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hunk:
    """One hunk: its old side and its new side, context lines included (None: no old file)."""

    old_text: str | None
    new_text: str


def hunks(diff: str) -> list[Hunk]:
    """The hunks of a unified diff, each as old/new text; headers and markers are dropped."""
    found: list[Hunk] = []
    old: list[str] = []
    new: list[str] = []
    created = False
    inside = False

    def flush() -> None:
        if inside:
            found.append(Hunk(None if created and not old else "".join(old), "".join(new)))

    for line in diff.splitlines(keepends=True):
        if line.startswith("--- "):
            created = line.startswith("--- /dev/null")
            continue
        if line.startswith("+++ "):
            continue
        if line.startswith("@@"):
            flush()
            old, new, inside = [], [], True
            continue
        if not inside or line.startswith("\\"):
            continue
        marker, text = line[:1], line[1:]
        if marker in (" ", "-"):
            old.append(text)
        if marker in (" ", "+"):
            new.append(text)
    flush()
    return found
