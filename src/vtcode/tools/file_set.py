"""Which files the search tools see: git's view in a repository, `.gitignore` rules otherwise.

`list_files` and both `grep_files` engines walk exactly this set, so their answers agree. It holds
regular files only (a symlink counts when its target is a file inside the workspace), never anything
under `.git/`, as workspace-relative POSIX paths.
"""

from __future__ import annotations

import asyncio
import logging
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pathspec
from wcmatch import glob as wcglob

from vtcode.protocol.errors import ToolError
from vtcode.tools.command_output import run_command
from vtcode.tools.workspace import WorkspacePath, is_inside

log = logging.getLogger(__name__)

# A pattern without "/" matches the file name at any depth, as in .gitignore (`*.py` finds `a/b/c.py`);
# `**` spans directories, `{a,b}` expands, and `*` also matches names starting with a dot.
_GLOB_FLAGS = wcglob.GLOBSTAR | wcglob.BRACE | wcglob.DOTGLOB | wcglob.MATCHBASE

PathFilter = Callable[[str], bool]


def compile_glob(pattern: str, base: str = ".") -> PathFilter:
    """A filter for workspace-relative paths, matching `pattern` against the path or its part below `base`."""
    try:
        matcher = wcglob.compile(pattern, flags=_GLOB_FLAGS)
    except Exception as exc:  # wcmatch raises bare Exception subclasses (PatternLimitException)
        raise ToolError(f"invalid glob pattern {pattern!r}: {exc}") from None
    prefix = "" if base == "." else base + "/"

    def accepts(path: str) -> bool:
        # Models write globs both ways (`src/*.py` and, with path="src", `*.py`); either form is honoured.
        if matcher.match(path):
            return True
        return bool(prefix) and path.startswith(prefix) and bool(matcher.match(path[len(prefix) :]))

    return accepts


async def visible_files(root: Path, base: WorkspacePath) -> list[str]:
    """Sorted workspace-relative paths of the non-ignored regular files at or below `base`."""
    if base.real.is_file():
        # An explicitly named file is used even when ignored, as `rg` and `git grep` do.
        return [base.display]
    if not base.real.is_dir():
        raise ToolError(f"no such file or directory: {base.display}")
    listed = await _git_listing(root, base.display)
    if listed is None:
        listed = await asyncio.to_thread(_walk_with_gitignore, root, base.display)
    return await asyncio.to_thread(_regular_files, root, listed)


async def _git_listing(root: Path, base: str) -> list[str] | None:
    """`git ls-files` for the workspace, or None when it is not in a repository or git is missing."""
    command = ["git", "--literal-pathspecs", "ls-files", "--cached", "--others"]
    command += ["--exclude-standard", "-z", "--"]
    if base != ".":
        command.append(base)
    result = await run_command(command, root)
    if result is None:
        return None
    if result.returncode != 0:
        log.debug("git ls-files failed in %s: %s", root, result.stderr.decode(errors="replace"))
        return None
    # git prints paths relative to its cwd; an untracked nested repository shows as "dir/".
    entries = {os.fsdecode(raw) for raw in result.stdout.split(b"\0") if raw}
    return [entry for entry in entries if not entry.endswith("/")]


def _regular_files(root: Path, candidates: list[str]) -> list[str]:
    kept: list[str] = []
    for relative in candidates:
        if ".git" in relative.split("/"):
            continue
        path = root / relative
        try:
            info = os.lstat(path)
        except OSError:
            continue  # deleted from the work tree but still in the index
        if stat.S_ISREG(info.st_mode):
            kept.append(relative)
        elif stat.S_ISLNK(info.st_mode):
            target = Path(os.path.realpath(path))
            if is_inside(root, target) and target.is_file():
                kept.append(relative)
    kept.sort()
    return kept


_IgnoreChain = tuple[tuple[str, pathspec.PathSpec[pathspec.Pattern]], ...]


def _walk_with_gitignore(root: Path, base: str) -> list[str]:
    """Files below `base`, honouring every `.gitignore` from the root down (no repository needed)."""
    found: list[str] = []
    chains: dict[str, _IgnoreChain] = {"": ()}
    for directory, dirnames, filenames in os.walk(root):
        relative_dir = Path(directory).relative_to(root).as_posix()
        relative_dir = "" if relative_dir == "." else relative_dir
        chain = chains.pop(relative_dir, ())
        spec = _load_gitignore(Path(directory) / ".gitignore")
        if spec is not None:
            chain = (*chain, (relative_dir, spec))
        kept_dirs: list[str] = []
        for name in sorted(dirnames):
            child = _join(relative_dir, name)
            if name == ".git" or _ignored(child + "/", chain) or not _on_route(child, base):
                continue
            if os.path.islink(os.path.join(directory, name)):
                # git lists a symlink to a directory as one entry; it is filtered out as a non-file later.
                if _under(child, base):
                    found.append(child)
                continue
            kept_dirs.append(name)
            chains[child] = chain
        # Pruning in place is how os.walk is told not to descend (ignored directories stay unread).
        dirnames[:] = kept_dirs
        for name in filenames:
            child = _join(relative_dir, name)
            if _under(child, base) and not _ignored(child, chain):
                found.append(child)
    return found


def _load_gitignore(path: Path) -> pathspec.PathSpec[pathspec.Pattern] | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return pathspec.PathSpec.from_lines("gitignore", lines)


def _ignored(path: str, chain: _IgnoreChain) -> bool:
    # The deepest .gitignore with a matching pattern decides, so a nested "!keep.log" can re-include.
    verdict = False
    for directory, spec in chain:
        relative = path[len(directory) + 1 :] if directory else path
        include = spec.check_file(relative).include
        if include is not None:
            verdict = include
    return verdict


def _join(directory: str, name: str) -> str:
    return f"{directory}/{name}" if directory else name


def _under(path: str, base: str) -> bool:
    return base in (".", path) or path.startswith(base + "/")


def _on_route(directory: str, base: str) -> bool:
    # Descend into `base` and everything below it, plus the directories leading down to it.
    return _under(directory, base) or base.startswith(directory + "/")
