"""Confinement of model-supplied paths to the workspace; every file tool resolves its paths here first.

A path is accepted only when its *real* location (every symlink resolved, including intermediate
directories and a dangling final link) is the workspace root or below it. Paths that do not exist yet
are resolved as far as they exist; the missing tail cannot contain a symlink, so creating it stays
inside the workspace. Writes are additionally refused inside any `.git` directory (any case: `.GIT` is
the same folder on a case-insensitive file system), and to vtcode's own files at the workspace root:
`vtcode.toml`, everything under `.vtcode/`, and `.mcp.json` (the project's MCP servers).

vtcode's own files are refused because an agent allowed to edit files (auto-edit) could otherwise widen
its own permissions for the next run, or replace its system prompt (`.vtcode/prompts/system.md`);
they are edited by the user, not the agent; `.mcp.json` names programs vtcode starts outside the
sandbox once the user trusted them. `.vtcode/context/` is refused too: vtcode writes its command
output spools there itself (not through tools), and the agent rewriting them, or the `.gitignore` that
keeps them out of commits, serves no task. Reading any of these stays allowed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

import msgspec

from vtcode.protocol.errors import ToolError

CONFIG_FILE_NAME = "vtcode.toml"
MCP_FILE_NAME = ".mcp.json"
STATE_DIR_NAME = ".vtcode"
SPOOL_DIR_NAME = "context"
_OWN_CONFIG = (
    "'{raw}' is part of vtcode's own configuration (vtcode.toml, .vtcode/ and .mcp.json at the workspace "
    "root), "
    "which the agent may not modify: vtcode's own configuration is edited by the user, not the agent"
)


class ConfinementError(ToolError):
    """A path names something outside the workspace, or a place the agent may not write."""


class WorkspacePath(msgspec.Struct, frozen=True):
    """A path the model named, resolved to a real location inside the workspace."""

    # Absolute, symlinks resolved, inside the workspace: the place I/O happens.
    real: Path
    # The path as named (normalized, symlinks *not* resolved), used to inspect the link itself.
    lexical: Path
    # Workspace-relative POSIX form of `real`, shown to the model ("." for the root); the absolute real
    # path for a file in an added folder (`--add-dir`).
    display: str
    # The resolved root `real` lies under (the workspace, or an added folder) and the path below it:
    # the descriptor walk (`beneath`) starts there. None/"": the workspace root and `display`.
    root: Path | None = None
    relative: str = ""

    def under(self, workspace_root: Path) -> tuple[Path, str]:
        """The root to walk from and the path below it, for `beneath`."""
        return (self.root or workspace_root, self.relative or self.display)


def workspace_root(workspace: Path) -> Path:
    """The workspace with every symlink resolved; a workspace that is not a directory is an error."""
    root = Path(os.path.realpath(workspace))
    if not root.is_dir():
        raise ToolError(f"the workspace {workspace} is not a directory")
    return root


def display_path(root: Path, real: Path) -> str:
    """The workspace-relative POSIX form of a real path inside `root`."""
    relative = real.relative_to(root).as_posix()
    return relative or "."


def is_inside(root: Path, real: Path) -> bool:
    """Whether the real path `real` is `root` itself or below it."""
    return real == root or real.is_relative_to(root)


def resolve(
    workspace: Path, raw: str, *, for_write: bool = False, extra_roots: Sequence[Path] = ()
) -> WorkspacePath:
    """Resolve a model-supplied path (relative to the workspace, or absolute) to a confined real path.

    An absolute path inside one of `extra_roots` (the `--add-dir` folders) is confined to that folder
    the same way: links are followed only as far as they stay inside it.
    """
    added = added_root(raw, workspace, extra_roots)
    if added is not None:
        return confined_in_added(raw, *added, for_write=for_write)
    root = workspace_root(workspace)
    relative = _lexical_relative(workspace, root, _named_bytes(root, raw))
    lexical, real, display = _followed(
        raw, root, relative, "the workspace", for_write=for_write, allowed="the workspace"
    )
    if for_write:
        _check_not_vtcode_own(raw, root, real, PurePosixPath(relative), PurePosixPath(display))
    return WorkspacePath(real=real, lexical=lexical, display=display)


def confined_in_added(raw: str, root: Path, relative: str, *, for_write: bool) -> WorkspacePath:
    """`raw`, which names `relative` below the added folder `root` (resolved), confined to that folder."""
    lexical, real, below = _followed(
        raw,
        root,
        relative,
        f"the added folder {root}",
        for_write=for_write,
        allowed="the workspace or an added folder",
    )
    return WorkspacePath(real=real, lexical=lexical, display=str(real), root=root, relative=below)


def _followed(
    raw: str, root: Path, relative: str, place: str, *, for_write: bool, allowed: str
) -> tuple[Path, Path, str]:
    """`relative` below `root` as named and with links followed, and its path below `root`; a link out
    of `place` (or, for a write, a protected path) is refused."""
    lexical = root / relative
    real = Path(os.path.realpath(lexical))
    if not is_inside(root, real):
        raise ConfinementError(
            f"'{raw}' goes through a symbolic link that points outside {place}; "
            f"only files inside {allowed} can be used"
        )
    below = display_path(root, real)
    if for_write:
        _check_writable(raw, PurePosixPath(relative), PurePosixPath(below))
    return lexical, real, below


def added_root(raw: str, workspace: Path, extra_roots: Sequence[Path]) -> tuple[Path, str] | None:
    """The resolved added folder an absolute `raw` lies in and its path below it; None for any other path.

    A path inside the workspace stays the workspace's, even when an added folder contains the workspace.
    """
    normalized = os.path.normpath(raw) if raw.strip() and "\0" not in raw else ""
    if not extra_roots or not os.path.isabs(normalized):
        return None
    named = Path(normalized)
    workspace_bases = (Path(os.path.normpath(os.path.abspath(workspace))), Path(os.path.realpath(workspace)))
    if any(named.is_relative_to(base) for base in workspace_bases):
        return None
    for extra in extra_roots:
        root = Path(os.path.realpath(extra))
        for base in (Path(os.path.normpath(os.path.abspath(extra))), root):
            if named.is_relative_to(base) and root.is_dir():
                return root, str(named.relative_to(base))
    return None


_BYTE_ESCAPE = re.compile(r"\\x([0-9a-fA-F]{2})")


def _named_bytes(root: Path, raw: str) -> str:
    """`raw`, or the file name it spells with `\\xNN` escapes when only that one exists.

    Events and the model show a file name that is not UTF-8 with its undecodable bytes as `\\xNN`
    (`core.printable`); a path copied from there names the real file.
    """
    if "\\x" not in raw or os.path.lexists(root / raw):
        return raw
    # The text around the escapes is UTF-8, as in any other name.
    parts = _BYTE_ESCAPE.split(raw)
    named = os.fsdecode(
        b"".join(bytes([int(p, 16)]) if i % 2 else p.encode("utf-8") for i, p in enumerate(parts))
    )
    return named if os.path.lexists(root / named) else raw


def _lexical_relative(workspace: Path, root: Path, raw: str) -> str:
    if not raw.strip():
        raise ToolError("the path is empty; give a path relative to the workspace root")
    if "\0" in raw:
        raise ToolError("the path contains a NUL character")
    normalized = os.path.normpath(raw)
    if os.path.isabs(normalized):
        # The model may echo back either the workspace as configured or its resolved form.
        for base in (Path(os.path.normpath(os.path.abspath(workspace))), root):
            if Path(normalized).is_relative_to(base):
                return str(Path(normalized).relative_to(base))
        raise ConfinementError(
            f"'{raw}' is outside the workspace {root}; use a path relative to the workspace root"
        )
    if normalized == ".." or normalized.startswith(".." + os.sep):
        raise ConfinementError(
            f"'{raw}' climbs out of the workspace with '..'; "
            "paths are relative to the workspace root and must stay inside it"
        )
    return normalized


def _check_writable(raw: str, lexical: PurePosixPath, real: PurePosixPath) -> None:
    if str(real) == ".":
        raise ConfinementError(f"'{raw}' is the workspace root itself, not a file")
    # Git's object store and refs are never edited by hand; a broken `.git` loses the user's history.
    if ".git" in _folded(lexical) or ".git" in _folded(real):
        raise ConfinementError(f"'{raw}' is inside a .git directory, which the agent may not modify")


def _check_not_vtcode_own(
    raw: str, root: Path, real: Path, lexical: PurePosixPath, shown: PurePosixPath
) -> None:
    """Refuse a write to `vtcode.toml` at the root or below `.vtcode/`, however the path is spelled.

    Names compare case-insensitively (on macOS `VTCODE.TOML` is the same file), and the real locations
    the config loader reads are compared too, so a link such as `.vtcode -> cfg` does not leave
    `cfg/vtcode.toml` writable.
    """
    named = (_folded(lexical), _folded(shown))
    for name in (CONFIG_FILE_NAME, MCP_FILE_NAME):
        if real == Path(os.path.realpath(root / name)) or (name,) in named:
            raise ConfinementError(_OWN_CONFIG.format(raw=raw))
    state = Path(os.path.realpath(root / STATE_DIR_NAME))
    # A `.vtcode` linked to the root itself (or above it) would make every file "vtcode's own".
    state_in_workspace = state != root and is_inside(root, state)
    if not (
        (state_in_workspace and is_inside(state, real)) or any(p[:1] == (STATE_DIR_NAME,) for p in named)
    ):
        return
    spool = (STATE_DIR_NAME, SPOOL_DIR_NAME)
    if (state_in_workspace and is_inside(state / SPOOL_DIR_NAME, real)) or any(p[:2] == spool for p in named):
        raise ConfinementError(
            f"'{raw}' is inside .vtcode/context, where vtcode itself keeps command output; "
            "the agent may not modify it (reading it is fine)"
        )
    raise ConfinementError(_OWN_CONFIG.format(raw=raw))


def _folded(path: PurePosixPath) -> tuple[str, ...]:
    """The parts of a workspace-relative path, case-folded."""
    return tuple(part.casefold() for part in path.parts)
