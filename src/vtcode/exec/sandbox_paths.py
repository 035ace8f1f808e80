"""Protected workspace paths that do not exist yet: placeholders the sandbox can hold read-only.

A protected path that does not exist yet gets a placeholder at its first missing component (an empty
folder, or an empty file for a final name with a suffix such as `vtcode.toml`; `{}` in a `.json` one),
which the command's mount namespace then holds read-only: a mount needs something to sit on, and
"create it later" is exactly what a command must not do. Placeholders vtcode made are removed again
when the sandbox closes, if they are still as it made them. An empty `.git` folder is ignored by git's
repository discovery. A placeholder is made relative to its parent's descriptor, reached without
following links, so a link a command planted is never created through.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from vtcode.exec.spool import open_folder


def _placeholder_text(name: str) -> bytes:
    # A JSON file (`.mcp.json`) gets an empty object, so a reader sees valid, empty configuration.
    return b"{}\n" if name.endswith(".json") else b""


def _is_file_name(name: str) -> bool:
    # `vtcode.toml`, `.mcp.json` are files; `.git`, `hooks`, `.vtcode` are folders.
    return "." in name.lstrip(".")


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
                name = parts[depth - 1]
                if depth == len(parts) and _is_file_name(name):
                    made = os.open(
                        name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=parent
                    )
                    try:
                        os.write(made, _placeholder_text(name))
                    finally:
                        os.close(made)
                else:
                    os.mkdir(name, 0o755, dir_fd=parent)
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
        real = os.path.realpath(self.workspace.joinpath(*parts))
        inside = Path(real).is_relative_to(self.workspace)
        return real if inside and os.path.lexists(real) else None

    def remove(self) -> None:
        """Remove the placeholders that are still as vtcode made them (newest first)."""
        for path in reversed(self._made):
            with contextlib.suppress(OSError):
                if path.is_dir() and not path.is_symlink():
                    path.rmdir()  # only when empty
                elif (
                    path.is_file()
                    and not path.is_symlink()
                    and path.read_bytes() == _placeholder_text(path.name)
                ):
                    path.unlink()
        self._made.clear()
