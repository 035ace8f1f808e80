"""The paths a stored history's tool calls touched, so a resumed session keeps its instruction scope.

They come from the `paths` the runtime recorded on each tool result (what the tool itself reported),
never from re-reading old call arguments: compaction may summarize the calls away, and a summary message
carries the union of the paths it replaced.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from vtcode.protocol.messages import Message, ToolResultMessage

# Tools whose recorded paths are files they changed; a command's own changes are not known (it records
# only the folder it ran in), so command tools name no file either way.
WRITING_TOOLS = frozenset({"apply_patch", "write_file"})
COMMAND_TOOLS = frozenset({"exec_command", "write_stdin"})


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


def changed_and_read(messages: Sequence[Message], workspace: str) -> tuple[list[str], list[str]]:
    """Files the history's tool calls changed, and files they only read; each oldest first, each once.

    A failed write changed nothing; a file both read and changed is listed as changed only.
    """
    changed: dict[str, None] = {}
    read: dict[str, None] = {}
    for message in messages:
        if not isinstance(message, ToolResultMessage) or message.name in COMMAND_TOOLS:
            continue
        writing = message.name in WRITING_TOOLS
        if writing and message.is_error:
            continue
        for path in message.meta.paths:
            relative = _relative(path, workspace)
            if relative is None:
                continue
            target = changed if writing else read
            target.pop(relative, None)
            target[relative] = None
    return list(changed), [path for path in read if path not in changed]


def _relative(path: str, workspace: str) -> str | None:
    root = posixpath.normpath(workspace)
    joined = posixpath.normpath(posixpath.join(root, path))
    if joined == root:
        return "."
    if not joined.startswith(root.rstrip("/") + "/"):
        return None
    return joined[len(root.rstrip("/")) + 1 :]
