"""What a rewind to a user turn changes: per path, the state to restore and the state vtcode expects.

Pure: the checkpoint records come in, a plan comes out. A record says what one call did to one path
(its state before and after). The state to restore is the `before` of the path's earliest change made
in the chosen turn or later; the state vtcode expects to find is the `after` of the path's latest
change of any kind. A file whose current state differs from the expected one was changed by hand
since vtcode last wrote it: a conflict, kept unless the user insists. Only paths some change names
are ever touched, so a file that was untracked before the checkpoint (and that no call changed) is
never deleted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

import msgspec

# Calls that are not the agent's work: they move the expected state but never pick a target.
RESTORE_CALLS = frozenset({"rewind", "redo"})


class FileState(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A file's content as a git blob id, its permission bits, and whether it is a symbolic link."""

    oid: str
    mode: int = 0o644
    link: bool = False

    def same(self, other: FileState | None) -> bool:
        """Same content, kind and executable bit (what git keeps; exact bits are restored, not compared)."""
        return (
            other is not None
            and other.oid == self.oid
            and other.link == self.link
            and bool(other.mode & 0o111) == bool(self.mode & 0o111)
        )


def same_state(a: FileState | None, b: FileState | None) -> bool:
    """Whether two states (None: absent) describe the same file."""
    return b is None if a is None else a.same(b)


class Change(msgspec.Struct, frozen=True):
    """One call's effect on one path: `seq` orders changes, `turn` is the user turn it ran in."""

    seq: int
    turn: int
    call: str
    path: str
    before: FileState | None
    after: FileState | None


Action = Literal["modify", "create", "delete"]


class PlannedPath(msgspec.Struct, frozen=True):
    """One path of a rewind: what it becomes, and whether a hand edit makes it a conflict."""

    path: str
    target: FileState | None
    expected: FileState | None
    current: FileState | None
    conflict: bool

    @property
    def action(self) -> Action:
        """What restoring does to the file as it is now."""
        if self.target is None:
            return "delete"
        return "create" if self.current is None else "modify"


def targets(changes: Sequence[Change], to_turn: int) -> dict[str, tuple[FileState | None, FileState | None]]:
    """Per path changed by the agent in `to_turn` or later: (state to restore, state vtcode expects)."""
    ordered = sorted(changes, key=lambda c: c.seq)
    first: dict[str, FileState | None] = {}
    for change in ordered:
        if change.turn >= to_turn and change.call not in RESTORE_CALLS and change.path not in first:
            first[change.path] = change.before
    last: dict[str, FileState | None] = {}
    for change in ordered:
        if change.path in first:
            last[change.path] = change.after
    return {path: (first[path], last[path]) for path in first}


def plan(
    wanted: Mapping[str, tuple[FileState | None, FileState | None]],
    current: Mapping[str, FileState | None],
) -> list[PlannedPath]:
    """The paths to touch (sorted), leaving out those already in their target state."""
    planned: list[PlannedPath] = []
    for path in sorted(wanted):
        target, expected = wanted[path]
        now = current.get(path)
        if same_state(now, target):
            continue
        planned.append(PlannedPath(path, target, expected, now, conflict=not same_state(now, expected)))
    return planned


def summary(planned: Iterable[PlannedPath]) -> dict[Action, int]:
    """How many paths each action touches (conflicts included)."""
    counts: dict[Action, int] = {"modify": 0, "create": 0, "delete": 0}
    for entry in planned:
        counts[entry.action] += 1
    return counts
