"""Folders a turn made: recorded as it runs, removed again by a rewind once it has emptied them.

A rewind that deletes the files a turn created would otherwise leave their folders behind (`pkg/sub/`
of an added module). Only a folder recorded as made in a rewound turn is removed, and only when empty:
a folder the user had, or one holding anything else, stays.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath


def parents(rel: str) -> list[str]:
    """The folders above a workspace-relative path, deepest first (none for an absolute path)."""
    path = PurePosixPath(rel)
    if path.is_absolute():
        return []
    return [str(p) for p in path.parents if str(p) != "."]


def missing_parents(workspace: Path, rel: str) -> list[str]:
    """The folders above `rel` that do not exist yet (those an edit creating `rel` makes)."""
    return [p for p in parents(rel) if not os.path.lexists(workspace / p)]


def prune_made_dirs(workspace: Path, removed: Iterable[str], made: set[str]) -> list[str]:
    """Remove the made folders the removal of `removed` left empty, deepest first; returns them."""
    gone: list[str] = []
    for rel in removed:
        for folder in parents(rel):
            if folder not in made:
                break
            path = workspace / folder
            if path.is_symlink() or not path.is_dir():
                break
            try:
                path.rmdir()
            except OSError:
                break  # not empty: it holds something else, which stays
            gone.append(folder)
    return gone
