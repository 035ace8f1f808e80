"""Cheap change detection for instruction sources: stat every place a source was read or may appear.

A discovery run records the files it read, the candidate names it probed (missing ones included), the
rule folders and their subfolders; re-checking is one `stat` per entry, independent of the size of the
workspace. Any difference (a new candidate, an edit, a rename, a deleted file) or a timestamp too recent
to trust means "discover again"; the reader's cache then re-reads only the files that changed.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from vtcode.instructions.reader import RACY_NS, Clock, Signature, probe


class Snapshot(msgspec.Struct, frozen=True):
    """Stat signatures of the watched paths at one moment."""

    entries: tuple[tuple[str, Signature | str | None], ...]
    taken_at: int

    @classmethod
    def take(cls, paths: Iterable[str], clock: Clock) -> Snapshot:
        """Stat `paths` now."""
        taken_at = clock()
        return cls(tuple((path, probe(path)) for path in sorted(set(paths))), taken_at)

    def changed(self) -> bool:
        """Whether any watched path differs now, or was too fresh to trust when the snapshot was taken."""
        limit = self.taken_at - RACY_NS
        for path, before in self.entries:
            if isinstance(before, tuple) and before[0] >= limit:
                return True
            if probe(path) != before:
                return True
        return False

    def __len__(self) -> int:
        """How many paths are watched."""
        return len(self.entries)
