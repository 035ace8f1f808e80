"""Look-ups a front end offers while the user types: stored sessions to resume, `@path` completions."""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

from vtcode.core.fuzzy import fuzzy_rank
from vtcode.store.meta import SessionInfo
from vtcode.store.session import SessionStore
from vtcode.tools.file_set import workspace_files

# Completions offered for one prefix: enough to choose from, few enough to read.
MAX_COMPLETIONS = 50
# Folders never worth completing into (they hold thousands of generated files).
_SKIPPED = frozenset({".git", "node_modules", "__pycache__", ".venv", ".mypy_cache", ".ruff_cache"})


def workspace_file_list(workspace: Path) -> list[str]:
    """Every file of the workspace git does not ignore (the `.gitignore` walk without git), and the
    folders holding them (with a trailing `/`: an `@folder/` mention attaches its listing); blocking."""
    files = workspace_files(workspace.resolve())
    folders = {f"{path[:index]}/" for path in files for index in _slashes(path)}
    return sorted([*files, *folders])


def _slashes(path: str) -> list[int]:
    return [index for index, character in enumerate(path) if character == "/"]


def find_files(files: list[str], query: str, limit: int = MAX_COMPLETIONS) -> list[str]:
    """The files that fuzzily match `query`, best first (what the `@` picker offers)."""
    return fuzzy_rank(query, files, limit)


def stored_sessions(home: Path) -> list[SessionInfo]:
    """Stored sessions, most recently updated first (what `/resume` offers)."""
    return SessionStore(home, time.time, lambda: str(uuid.uuid4())).list()


def stored_session_id(home: Path, id_or_prefix: str) -> str:
    """The full id `/resume ID` opens: the one stored session whose id is or starts with `id_or_prefix`
    (raises `UnknownSessionError` for none, or for a prefix of several)."""
    return SessionStore(home, time.time, lambda: str(uuid.uuid4())).resolve_id(id_or_prefix)


def complete_path(workspace: Path, prefix: str) -> list[str]:
    """Workspace-relative paths that start with `prefix`, folders with a trailing `/`, sorted.

    Only the folder named by `prefix` is listed (one level), and nothing outside the workspace.
    """
    folder, _, start = prefix.rpartition("/")
    root = workspace.resolve()
    directory = (root / folder).resolve() if folder else root
    if directory != root and root not in directory.parents:
        return []
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return []
    found: list[str] = []
    for entry in entries:
        if not entry.name.startswith(start) or entry.name in _SKIPPED:
            continue
        if entry.name.startswith(".") and not start.startswith("."):
            continue
        shown = f"{folder}/{entry.name}" if folder else entry.name
        found.append(shown + "/" if entry.is_dir() else shown)
        if len(found) >= MAX_COMPLETIONS:
            break
    return found
