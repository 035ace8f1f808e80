"""The paths a stored history's tool calls touched, so a resumed session keeps its instruction scope."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence

from vtcode.protocol.messages import AssistantMessage, Message

_PATH_KEYS = ("path", "workdir")
_PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")


def touched_paths(messages: Sequence[Message], workspace: str) -> list[str]:
    """Workspace-relative paths named by tool calls, most recent first, each once.

    Only what the calls asked for is known here (the tools' own results are not stored); paths outside
    the workspace are left out, as the tools refused them.
    """
    found: dict[str, None] = {}
    for message in messages:
        if not isinstance(message, AssistantMessage):
            continue
        for call in message.tool_calls:
            for path in _call_paths(call.arguments):
                relative = _relative(path, workspace)
                if relative is not None:
                    found.pop(relative, None)
                    found[relative] = None
    return list(reversed(found))


def _call_paths(arguments: str) -> list[str]:
    try:
        values = json.loads(arguments or "{}")
    except ValueError:
        return []
    if not isinstance(values, dict):
        return []
    paths = [values[key] for key in _PATH_KEYS if isinstance(values.get(key), str)]
    patch = values.get("patch")
    if isinstance(patch, str):
        for line in patch.splitlines():
            for header in _PATCH_HEADERS:
                if line.startswith(header):
                    paths.append(line[len(header) :].strip())
    return paths


def _relative(path: str, workspace: str) -> str | None:
    root = posixpath.normpath(workspace)
    joined = posixpath.normpath(posixpath.join(root, path))
    if joined == root:
        return "."
    if not joined.startswith(root.rstrip("/") + "/"):
        return None
    return joined[len(root.rstrip("/")) + 1 :]
