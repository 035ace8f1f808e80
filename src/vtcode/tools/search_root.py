"""Where `list_files` and `grep_files` walk: the workspace, or the added folder (`--add-dir`) a path names.

The file set walks and reports paths relative to one root; in an added folder that root is the folder
itself (its own `.gitignore` files and git repository, if any), and the paths are shown absolute, as the
model named the folder.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from vtcode.exec.git_repo import GitAccess
from vtcode.tools.base import ToolContext
from vtcode.tools.workspace import WorkspacePath, resolve, workspace_root


class SearchRoot(msgspec.Struct, frozen=True):
    """The root to walk from, the base below it, and how found paths are shown."""

    root: Path
    # The named folder or file, its `display` relative to `root`.
    base: WorkspacePath
    # The session's git for the workspace; None in an added folder (a fresh access of its own).
    git: GitAccess | None
    # The added folder found paths are shown under; None in the workspace (paths stay relative).
    prefix: Path | None = None

    def shown(self, path: str) -> str:
        """How the model sees a path the walk found below `root`."""
        if self.prefix is None:
            return path
        return str(self.prefix) if path == "." else str(self.prefix / path)


def search_root(ctx: ToolContext, raw: str) -> tuple[SearchRoot, WorkspacePath]:
    """The walk for the folder or file `raw`, and `raw` resolved as the model sees it."""
    home = workspace_root(ctx.workspace)
    named = resolve(ctx.workspace, raw, extra_roots=ctx.extra_roots)
    if named.root is None:
        return SearchRoot(home, named, ctx.git), named
    local = msgspec.structs.replace(named, display=named.relative, root=None, relative="")
    return SearchRoot(named.root, local, None, named.root), named
