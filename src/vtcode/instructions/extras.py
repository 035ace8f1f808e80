"""Expansion of `agent.instruction_files`: extra instruction files named by path or glob.

A relative pattern is taken from the project root, `~/` from the home folder, an absolute one as is.
Globs use the rule semantics (`*` stays within a folder, `**` spans folders, braces work) except that a
pattern without `/` names a file at the root, not at any depth. Only the folders a pattern can reach are
listed, and each is watched, so a file added there later is picked up.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

_MAGIC = frozenset("*?[]{}")


class Expansion(msgspec.Struct, frozen=True):
    """The files a pattern names (sorted), or the reason it cannot be used."""

    files: tuple[Path, ...] = ()
    problem: str | None = None


def expand_pattern(pattern: str, *, root: Path, home: Path | None, watch: set[str]) -> Expansion:
    """The files matching one `agent.instruction_files` entry."""
    text = pattern.strip()
    if text == "~" or text.startswith("~/"):
        if home is None:
            return Expansion(problem="uses ~ but there is no home folder")
        base, relative = home, text[2:]
    elif text.startswith("/"):
        base, relative = Path("/"), text.lstrip("/")
    else:
        base, relative = root, text.removeprefix("./")
    parts = [part for part in relative.split("/") if part]
    if not parts:
        return Expansion(problem="names a folder, not a file")
    magic = next((i for i, part in enumerate(parts) if _MAGIC & set(part)), None)
    if magic is None:
        path = base.joinpath(*parts)
        watch.add(os.fspath(path))
        return Expansion(files=(path,) if os.path.lexists(path) else ())
    if any("**" in part and part != "**" for part in parts):
        return Expansion(problem="`**` must be a whole path component")
    # Imported here: only a glob entry needs wcmatch, and it costs ~7 ms at start-up.
    from wcmatch import glob as wcglob

    try:
        flags = wcglob.GLOBSTAR | wcglob.BRACE | wcglob.DOTGLOB
        matcher = wcglob.compile("/".join(parts), flags=flags)
    except Exception as exc:  # wcmatch raises plain Exception subclasses (brace expansion limit)
        return Expansion(problem=f"is not a valid pattern: {exc}")
    start = base.joinpath(*parts[:magic])
    # Without `**` a pattern cannot reach deeper than its own number of components.
    max_depth = None if "**" in parts else len(parts) - magic - 1
    files = [
        path for path in _walk(start, max_depth, watch) if matcher.match(path.relative_to(base).as_posix())
    ]
    return Expansion(files=tuple(sorted(files)))


def _walk(start: Path, max_depth: int | None, watch: set[str]) -> list[Path]:
    found: list[Path] = []
    watch.add(os.fspath(start))
    if not start.is_dir():
        return found
    start_depth = len(start.parts)
    for directory, dirnames, filenames in os.walk(start):
        watch.add(directory)
        depth = len(Path(directory).parts) - start_depth
        # Pruning in place is how os.walk is told not to descend.
        dirnames[:] = (
            []
            if max_depth is not None and depth >= max_depth
            else sorted(name for name in dirnames if name != ".git")
        )
        found.extend(Path(directory) / name for name in filenames)
    return found
