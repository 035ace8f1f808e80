"""What the files a snapshot shows changed look like now: their permission bits and last inode change.

Git keeps only a file's executable bit, and it cannot say when a path changed; the file itself can.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from vtcode.core.rewind_plan import FileState

# The kernel stamps files with a coarse clock that lags the wall clock by a tick.
_CTIME_SLACK = 0.05


def with_mode(state: FileState | None, mode: int | None) -> FileState | None:
    """A snapshot state with the file's real permission bits, when its executable bit agrees.

    Git keeps only the executable bit, and a restore writes the bits recorded. A command that changes
    a file's content (`>>`, `sed -i`) keeps its bits, so those the file has now are the ones it had
    before too: a private (0600) file must not come back world-readable.
    """
    if state is None or state.link or mode is None or bool(mode & 0o111) != bool(state.mode & 0o111):
        return state
    return FileState(state.oid, mode)


def look(workspace: Path, paths: Sequence[str], since: float) -> tuple[dict[str, int], set[str]]:
    """The permission bits of the regular files among `paths` as they are now, and the paths
    unchanged since `since` (their inode changed last before it: content, mode and renames set it).

    So a call is not credited with what changed before it went off, though the snapshot before
    it was older: a file the user edited while the model thought, an ignored file that an edit
    of `.gitignore` made visible (that a rewind would have deleted as the call's creation).

    On a file system with whole-second stamps a call's change may pass for an older one: a rewind
    then leaves it as it is, which beats reverting or deleting what the user made.
    """
    modes: dict[str, int] = {}
    untouched: set[str] = set()
    for rel in paths:
        try:
            info = os.lstat(workspace / rel)
        except OSError:
            continue
        if info.st_ctime < since - _CTIME_SLACK:
            untouched.add(rel)
        if stat.S_ISREG(info.st_mode):
            modes[rel] = stat.S_IMODE(info.st_mode)
    return modes, untouched
