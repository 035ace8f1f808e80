"""The paths a stored history's tool calls touched, so a resumed session keeps its instruction scope.

They come from the `paths` the runtime recorded on each tool result (what the tool itself reported),
never from re-reading old call arguments: compaction may summarize the calls away, and a summary message
carries the union of the paths it replaced.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from vtcode.protocol.messages import Message


def touched_paths(messages: Sequence[Message], workspace: str) -> list[str]:
    """Workspace-relative paths recorded in the history, most recent first, each once.

    Absolute paths inside the workspace are made relative; paths outside it are left out.
    """
    found: dict[str, None] = {}
    for message in messages:
        for path in message.meta.paths:
            relative = _relative(path, workspace)
            if relative is not None:
                found.pop(relative, None)
                found[relative] = None
    return list(reversed(found))


def _relative(path: str, workspace: str) -> str | None:
    root = posixpath.normpath(workspace)
    joined = posixpath.normpath(posixpath.join(root, path))
    if joined == root:
        return "."
    if not joined.startswith(root.rstrip("/") + "/"):
        return None
    return joined[len(root.rstrip("/")) + 1 :]
