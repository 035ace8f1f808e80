"""Saving a tool call's whole arguments beside the command spools, where the model can read them back."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from vtcode.exec.spool import SPOOL_DIR, SPOOL_SUFFIX
from vtcode.protocol.errors import ToolError
from vtcode.tools.beneath import entry_stat, replace_file
from vtcode.tools.workspace import workspace_root

log = logging.getLogger(__name__)
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def spool_arguments(workspace: Path, call_id: str, arguments: str) -> str | None:
    """Save `arguments` as `.vtcode/context/tool_outputs/arguments-<call id>.log`; its path, or None.

    Written through directory descriptors (`beneath`), like every file tool, and with the `.log`
    suffix, so the spool folder's `.gitignore` and its 7-day clean-up cover it.
    """
    folder = SPOOL_DIR.as_posix()
    display = f"{folder}/arguments-{_UNSAFE.sub('_', call_id)[:64] or 'call'}{SPOOL_SUFFIX}"
    try:
        root = workspace_root(workspace)
        if entry_stat(root, f"{folder}/.gitignore") is None:
            replace_file(root, f"{folder}/.gitignore", b"*\n")
        replace_file(root, display, arguments.encode("utf-8", "surrogatepass"))
    except (OSError, ToolError) as exc:
        log.warning("could not save the arguments of tool call %s: %s", call_id, exc)
        return None
    return display
