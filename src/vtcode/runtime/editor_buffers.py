"""Edits reach an editor's buffers: after an edit tool wrote files, the editor is given their new text."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Sequence
from pathlib import Path

from vtcode.protocol.events import FileChange
from vtcode.tools.base import TextBuffers

log = logging.getLogger(__name__)

# Bigger files are left to the editor's own reload from disk.
MAX_FOLLOW_BYTES = 4 * 1024 * 1024


async def follow_edits(buffers: TextBuffers, workspace: Path, changes: Sequence[FileChange]) -> None:
    """Hand each written text file's new content to the editor; deletions have no buffer to update."""
    for change in changes:
        if change.kind == "delete":
            continue
        path, text = await asyncio.to_thread(_text_of, workspace, change.move_to or change.path)
        if text is None:
            continue
        try:
            await buffers.written(path, text)
        except Exception as exc:  # the edit is on disk either way; the editor reloads it itself
            log.warning("the editor was not given the new text of %s: %s", change.path, exc)


def _text_of(workspace: Path, relative: str) -> tuple[Path, str | None]:
    """The written file's absolute path (as the editor names it: the workspace's real path) and text."""
    path = Path(os.path.realpath(workspace), relative)
    try:
        if os.stat(path).st_size > MAX_FOLLOW_BYTES:
            return path, None
        return path, path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return path, None
