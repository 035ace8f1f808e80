"""Active paths (SPEC section 5, decision 6): which folders' AGENTS files load and which rules match.

The active paths are the files and folders the agent touched this session plus the workspace root. Every
folder from the project root down to each of them contributes its AGENTS/CLAUDE files; a file counts
through its folder, a folder (a command's workdir) counts itself. The set, not the order of touches,
decides the result, so the appendix stays byte-stable while the agent moves between files it has
already seen.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from vtcode.instructions.options import InstructionOptions, is_within, real


def resolve_active(options: InstructionOptions, active_paths: Iterable[str]) -> list[Path]:
    """Real absolute paths of the active paths (relative ones are workspace-relative), workspace included."""
    resolved = [options.workspace]
    for raw in active_paths:
        text = raw.strip()
        if not text or "://" in text:
            continue
        path = Path(text)
        resolved.append(real(path if path.is_absolute() else options.workspace / path))
    return list(dict.fromkeys(resolved))


def hierarchy_levels(options: InstructionOptions, active: Sequence[Path]) -> list[Path]:
    """The folders whose AGENTS/CLAUDE files load, least specific (the root) first.

    An active path outside the project root counts as the root; one that no longer exists counts
    through its nearest existing folder (a deleted file does not drop its folder's instructions).
    """
    root = options.project_root
    levels: set[Path] = {root}
    for path in active:
        directory = folder_of(path, root)
        if directory is not None:
            levels.update(p for p in (directory, *directory.parents) if is_within(p, root))
    return sorted(levels, key=lambda p: (len(p.parts), p.as_posix()))


def folder_of(path: Path, root: Path) -> Path | None:
    """The folder whose files apply to `path`: itself or its nearest existing parent; None outside `root`."""
    directory = path if os.path.isdir(path) else path.parent
    while not os.path.isdir(directory) and directory not in (root, directory.parent):
        directory = directory.parent
    return directory if is_within(directory, root) else None


def nearest_levels(options: InstructionOptions, active: Sequence[Path]) -> set[Path]:
    """The folders of the active paths themselves (not their ancestors): their files are the nearest.

    The workspace is always active; it counts only when nothing else is (`active[0]` is the workspace).
    """
    explicit = active[1:] or active
    found = (folder_of(path, options.project_root) for path in explicit)
    return {level for level in found if level is not None}


def match_candidates(base: Path, active: Sequence[Path]) -> list[tuple[str, bool]]:
    """`(relative POSIX path, is folder)` of the active paths below `base`, for rule globs.

    The base itself is left out: a rule scoped to paths needs something more specific than "the
    whole workspace" before it applies.
    """
    candidates: set[tuple[str, bool]] = set()
    for path in active:
        if path == base or not is_within(path, base):
            continue
        candidates.add((path.relative_to(base).as_posix(), os.path.isdir(path)))
    return sorted(candidates)


def depth(path: Path, root: Path) -> int:
    """How many folders `path` is below `root`."""
    return len(path.parts) - len(root.parts)
