"""Protected workspace paths that do not exist yet: placeholders the sandbox can hold read-only.

A protected path that does not exist yet gets a placeholder at its first missing component, which the
command's mount namespace then holds read-only: a mount needs something to sit on, and "create it
later" is exactly what a command must not do. The placeholder is always an empty folder, also for a
file name such as `vtcode.toml` or `.mcp.json`: git, `rg --files` and the file tools list no empty
folder, so neither `git status` nor the agent sees it, and vtcode's loaders read a folder where a file
belongs as absent. Placeholders are removed again when the sandbox closes, if still empty; one left by
a killed run (an empty folder under a file's name) is adopted and removed the next time. An empty
`.git` folder is ignored by git's repository discovery. A placeholder is made relative to its
parent's descriptor, reached without following links, so a link a command planted is never created
through.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from vtcode.exec.spool import open_folder


def _is_file_name(name: str) -> bool:
    # `vtcode.toml`, `.mcp.json` are files; `.git`, `hooks`, `.vtcode` are folders.
    return "." in name.lstrip(".")


def _is_leftover(path: Path) -> bool:
    """An empty folder under a file's name: only a placeholder of a killed run looks like that."""
    with contextlib.suppress(OSError):
        return (
            _is_file_name(path.name) and path.is_dir() and not path.is_symlink() and not any(path.iterdir())
        )
    return False


class Placeholders:
    """The placeholders one sandbox made, so it can remove them again."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self._made: list[Path] = []

    def existing(self, names: Iterable[str]) -> list[str]:
        """Each protected name's real path inside the workspace, with a placeholder where it is missing."""
        found: list[str] = []
        for name in names:
            path = self._materialize(PurePosixPath(name))
            if path is not None:
                found.append(path)
        return found

    def _materialize(self, relative: PurePosixPath) -> str | None:
        parts = relative.parts
        for depth in range(1, len(parts) + 1):
            candidate = self.workspace.joinpath(*parts[:depth])
            if os.path.lexists(candidate):
                continue
            # The first missing component: make it, relative to its (link-free) parent.
            try:
                parent = open_folder(self.workspace, PurePosixPath(*parts[: depth - 1]), create=False)
            except OSError:
                return None  # the parent is a link or not a folder: nothing vtcode will read lies there
            try:
                os.mkdir(parts[depth - 1], 0o755, dir_fd=parent)
            except FileExistsError:
                pass
            except OSError:
                return None
            else:
                self._made.append(candidate)
            finally:
                os.close(parent)
            # What was made is what gets protected: nothing can be created beneath it either.
            parts = parts[:depth]
            break
        else:
            whole = self.workspace.joinpath(*parts)
            if whole not in self._made and _is_leftover(whole):
                self._made.append(whole)
        real = os.path.realpath(self.workspace.joinpath(*parts))
        inside = Path(real).is_relative_to(self.workspace)
        return real if inside and os.path.lexists(real) else None

    def remove(self) -> None:
        """Remove the placeholders that are still as vtcode made them (newest first)."""
        for path in reversed(self._made):
            with contextlib.suppress(OSError):
                if path.is_dir() and not path.is_symlink():
                    path.rmdir()
        self._made.clear()
