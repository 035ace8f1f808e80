"""Which files the search tools see: git's view in a repository, `.gitignore` rules otherwise.

`list_files` and both `grep_files` engines walk exactly this set, so their answers agree. It holds
regular files only (a symlink counts when its target is a file inside the workspace), never anything
under `.git/`, as workspace-relative POSIX paths.

The set is produced in batches so that a search can start on the first files while the rest are
still being checked; one directory read per directory gives every file type there (no stat per file).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import msgspec

from vtcode.exec.git_repo import GitAccess, run_git
from vtcode.protocol.errors import ToolError
from vtcode.tools.command_output import run_command
from vtcode.tools.gitignore_rules import IgnoreChain, ignored, load_gitignore
from vtcode.tools.regular_file import check_regular_or_absent
from vtcode.tools.workspace import WorkspacePath, is_inside

log = logging.getLogger(__name__)


# Files per batch: the first batch is checked in ~10 ms, and each rg process gets enough work that
# starting it is cheap in comparison (bench/search_bench.py, 50,000 files: 4,096 per batch made
# grep_files 1.5x rg, 12,288 1.2-1.3x).
BATCH_FILES = 12288

PathFilter = Callable[[str], bool]


def compile_glob(pattern: str, base: str = ".") -> PathFilter:
    """A filter for workspace-relative paths, matching `pattern` against the path or its part below `base`."""
    # Imported on first use (pathspec and wcmatch cost ~15 ms of start-up together).
    from wcmatch import glob as wcglob

    # A pattern without "/" matches the file name at any depth, as in .gitignore (`*.py` finds `a/b/c.py`);
    # `**` spans directories, `{a,b}` expands, and `*` also matches names starting with a dot.
    flags = wcglob.GLOBSTAR | wcglob.BRACE | wcglob.DOTGLOB | wcglob.MATCHBASE
    try:
        matcher = wcglob.compile(pattern, flags=flags)
    except Exception as exc:  # wcmatch raises bare Exception subclasses (PatternLimitException)
        raise ToolError(f"invalid glob pattern {pattern!r}: {exc}") from None
    prefix = "" if base == "." else base + "/"

    def accepts(path: str) -> bool:
        # Models write globs both ways (`src/*.py` and, with path="src", `*.py`); either form is honoured.
        if matcher.match(path):
            return True
        return bool(prefix) and path.startswith(prefix) and bool(matcher.match(path[len(prefix) :]))

    return accepts


class FileBatch(msgspec.Struct, frozen=True):
    """Some visible files, and those of their directories that hold nothing else."""

    files: list[str]
    # Directories (never the workspace root) whose every entry is a regular file listed in `files`:
    # no subdirectory, no symlink, nothing ignored. A search may read such a directory whole instead
    # of naming each file, which spares a stat per file in ripgrep.
    whole_directories: list[str]

    def narrowed(self, accepts: PathFilter) -> FileBatch:
        """The files `accepts` keeps; a directory that lost a file is no longer whole."""
        kept: list[str] = []
        thinned: set[str] = set()
        for path in self.files:
            if accepts(path):
                kept.append(path)
            else:
                thinned.add(path.rpartition("/")[0])
        whole = [directory for directory in self.whole_directories if directory not in thinned]
        return FileBatch(kept, whole)


async def visible_files(root: Path, base: WorkspacePath, git: GitAccess | None = None) -> list[str]:
    """Sorted workspace-relative paths of the non-ignored regular files at or below `base`.

    `git` is the session's access to git (a fresh one, without the user's environment, when None).
    """
    files = [path async for batch in await visible_file_batches(root, base, git=git) for path in batch.files]
    files.sort()
    return files


async def visible_file_batches(
    root: Path, base: WorkspacePath, batch_files: int = BATCH_FILES, *, git: GitAccess | None = None
) -> AsyncIterator[FileBatch]:
    """The files of `visible_files` in unsorted, non-empty batches, each yielded as soon as it is known.

    A `base` that does not exist is an error here, before the first batch.
    """
    if base.real.is_file():
        # An explicitly named file is used even when ignored, as `rg` and `git grep` do.
        return _off_loop(iter([FileBatch([base.display], [])]))
    if not base.real.is_dir():
        # A named pipe or device is there but is no file to list or search; say so, not "missing".
        check_regular_or_absent(base.real, base.display)
        raise ToolError(f"no such file or directory: {base.display}")
    batches = await _git_file_batches(git or GitAccess(root, {}), root, base.display, batch_files)
    if batches is None:
        return _off_loop(_walk_with_gitignore(root, base.display, batch_files))
    return batches


def workspace_files(root: Path, git: GitAccess | None = None) -> list[str]:
    """The files `visible_files` lists for the whole workspace, for callers without an event loop.

    One `git ls-files --cached --others` run (tracked and untracked, ignored ones left out) where
    there is a repository vtcode may run git on, the `.gitignore` walk otherwise; unordered.
    """
    git = git or GitAccess(root, {})
    command = git.command("ls-files", "--cached", "--others", "--exclude-standard", "-z")
    done = None
    if command is not None:
        try:
            done = run_git(command, root, git.environment)
        except OSError as exc:
            log.info("could not start git: %s", exc)
    if done is not None and done.returncode == 0:
        batches = _regular_file_batches(root, _ls_files_paths(done.stdout), BATCH_FILES)
    else:
        batches = _walk_with_gitignore(root, ".", BATCH_FILES)
    return [path for batch in batches for path in batch.files]


async def _off_loop(batches: Iterator[FileBatch]) -> AsyncIterator[FileBatch]:
    # Each step of the generator runs in a worker thread; the caller works on one batch meanwhile.
    while (batch := await asyncio.to_thread(next, batches, None)) is not None:
        yield batch


async def _git_file_batches(
    git: GitAccess, root: Path, base: str, batch_files: int
) -> AsyncIterator[FileBatch] | None:
    """The visible files as git lists them; None when not in a repository or git is missing."""
    # The index gives the tracked files in milliseconds, the untracked ones take a walk of the work
    # tree, and one `ls-files --cached --others` prints the untracked ones first. Two runs let the
    # tracked files be checked during the walk. The two index reads are a millisecond apart: only a
    # `git add` or `git rm --cached` landing exactly between them could make them disagree.
    if git.command() is None:
        return None  # no repository, or one vtcode must not run git on
    untracked_run = asyncio.create_task(_ls_files(git, root, base, "--others", "--exclude-standard"))
    try:
        tracked = await _ls_files(git, root, base, "--cached")
        if tracked is None:
            # Outside a repository the other run fails as fast. It is awaited, not cancelled: a
            # cancel racing git's exit makes asyncio reap the child twice (and log about it).
            await untracked_run
            return None
        tracked_batches = _regular_file_batches(root, tracked, batch_files)
        ready: list[FileBatch] = []
        while not untracked_run.done():
            batch = await asyncio.to_thread(next, tracked_batches, None)
            if batch is None:
                break
            ready.append(batch)
        untracked = await untracked_run
    finally:
        if not untracked_run.done():
            untracked_run.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await untracked_run
    # Nothing is yielded before both runs succeeded, so a failure still means the .gitignore walk.
    if untracked is None:
        return None
    return _chained(ready, tracked_batches, _untracked_batches(root, untracked, tracked, batch_files))


async def _chained(ready: list[FileBatch], *pending: Iterator[FileBatch]) -> AsyncIterator[FileBatch]:
    for batch in ready:
        yield batch
    for batches in pending:
        async for batch in _off_loop(batches):
            yield batch


def _untracked_batches(
    root: Path, untracked: list[str], tracked: list[str], batch_files: int
) -> Iterator[FileBatch]:
    if not untracked:
        return
    # A path added to the index between the two runs shows in both; it is listed once.
    known = set(tracked)
    fresh = [path for path in untracked if path not in known]
    yield from _regular_file_batches(root, fresh, batch_files)


async def _ls_files(git: GitAccess, root: Path, base: str, *options: str) -> list[str] | None:
    """Paths from `git ls-files OPTIONS`, or None when it fails (no repository, no git)."""
    command = git.command("--literal-pathspecs", "ls-files", *options, "-z", "--")
    if command is None:
        return None
    if base != ".":
        command.append(base)
    result = await run_command(command, root, env=git.environment)
    if result is None:
        return None
    if result.returncode != 0:
        log.debug("git ls-files failed in %s: %s", root, result.stderr.decode(errors="replace"))
        return None
    return _ls_files_paths(result.stdout)


def _ls_files_paths(stdout: bytes) -> list[str]:
    """The paths of `git ls-files -z` output, each once, without untracked nested repositories."""
    # One decode of the whole output equals os.fsdecode per entry (a NUL never sits inside a
    # multi-byte sequence) at a fraction of the cost; dict.fromkeys drops the repeats an unmerged
    # path has in the index.
    text = stdout.decode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
    entries = dict.fromkeys(text.split("\0"))
    # git prints paths relative to its cwd; an untracked nested repository shows as "dir/".
    return [entry for entry in entries if entry and not entry.endswith("/")]


def _regular_file_batches(root: Path, candidates: list[str], batch_files: int) -> Iterator[FileBatch]:
    """The candidates that are regular files or symlinks to files inside the workspace, in batches."""
    by_directory: dict[str, list[str]] = {}
    for relative in candidates:
        directory, _, name = relative.rpartition("/")
        names = by_directory.get(directory)
        if names is None:
            by_directory[directory] = [name]
        else:
            names.append(name)
    # Delegated, not returned: the grouping above runs on the first `next`, in the caller's worker thread.
    yield from _batched(_kept_by_directory(root, by_directory), batch_files)


def _kept_by_directory(
    root: Path, by_directory: dict[str, list[str]]
) -> Iterator[tuple[list[str], str | None]]:
    top = os.fspath(root)
    for directory, names in by_directory.items():
        if not directory:
            yield _files_in(root, top, names)[0], None
            continue
        if ".git" in directory.split("/"):
            continue
        kept, complete = _files_in(root, os.path.join(top, directory), names)
        yield [f"{directory}/{name}" for name in kept], directory if complete else None


def _batched(directories: Iterator[tuple[list[str], str | None]], batch_files: int) -> Iterator[FileBatch]:
    """Each directory's kept files, and the directory when they are all it holds, gathered in batches."""
    files: list[str] = []
    whole: list[str] = []
    for kept, complete in directories:
        files += kept
        if complete is not None:
            whole.append(complete)
        if len(files) >= batch_files:
            yield FileBatch(files, whole)
            files, whole = [], []
    if files:
        yield FileBatch(files, whole)


def _files_in(root: Path, directory: str, names: list[str]) -> tuple[list[str], bool]:
    """Those of `names` (distinct) in `directory` that are kept, and whether they are all it holds."""
    wanted = set(names)
    wanted.discard(".git")
    if len(wanted) == 1:
        # One lstat is cheaper than opening and reading the directory.
        (name,) = wanted
        return ([name] if _keeps_path(root, os.path.join(directory, name)) else []), False
    try:
        with os.scandir(directory) as listing:
            entries = list(listing)
    except OSError:
        # Gone, or searchable but not readable (mode --x): a stat per name still answers.
        entries = []
    # Set operations over the whole directory: this runs once per file in the workspace.
    regular = {entry.name for entry in entries if _is_regular(entry)}
    kept = wanted & regular
    complete = bool(entries) and len(kept) == len(entries)
    rest = wanted - regular
    if rest:
        # Symlinks, and names missing from the directory: usually deleted from the work tree but
        # still in the index, or spelled differently by the file system (Unicode normalization,
        # case folding), which lstat still finds.
        others = {entry.name: entry for entry in entries if entry.name in rest}
        for name in rest:
            entry = others.get(name)
            path = os.path.join(directory, name)
            if _keeps_entry(root, entry) if entry is not None else _keeps_path(root, path):
                kept.add(name)
    return list(kept), complete


def _is_regular(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _keeps_entry(root: Path, entry: os.DirEntry[str]) -> bool:
    # DirEntry knows its type from the directory read itself, so a regular file costs no stat.
    try:
        if entry.is_file(follow_symlinks=False):
            return True
        if not entry.is_symlink():
            return False
    except OSError:
        return False
    return _links_to_inside_file(root, entry.path)


def _keeps_path(root: Path, path: str) -> bool:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False  # deleted from the work tree but still in the index
    if stat.S_ISREG(mode):
        return True
    return stat.S_ISLNK(mode) and _links_to_inside_file(root, path)


def _links_to_inside_file(root: Path, path: str) -> bool:
    target = Path(os.path.realpath(path))
    return is_inside(root, target) and target.is_file()


def _walk_with_gitignore(root: Path, base: str, batch_files: int) -> Iterator[FileBatch]:
    """Kept files below `base`, honouring every `.gitignore` from the root down (no repository needed).

    The directory reads that find the names also give their types, so no second pass is needed.
    """
    return _batched(_gitignore_walk(root, base), batch_files)


def _gitignore_walk(root: Path, base: str) -> Iterator[tuple[list[str], str | None]]:
    top = os.fspath(root)
    pending: list[tuple[str, IgnoreChain]] = [("", ())]
    while pending:
        relative_dir, chain = pending.pop()
        directory = os.path.join(top, relative_dir) if relative_dir else top
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError:
            continue  # vanished or unreadable: skipped, as os.walk does
        if any(entry.name == ".gitignore" for entry in entries):
            ignore_file = load_gitignore(os.path.join(directory, ".gitignore"), relative_dir)
            if ignore_file is not None:
                chain = (*chain, ignore_file)
        complete = bool(relative_dir) and _under(relative_dir, base)
        files: list[str] = []
        for entry in entries:
            name = entry.name
            child = f"{relative_dir}/{name}" if relative_dir else name
            if name == ".git":
                complete = False
            elif _is_real_directory(entry):
                complete = False
                # Ignored directories stay unread, and so do those off the way to `base`.
                if _on_route(child, base) and not ignored(child + "/", chain):
                    pending.append((child, chain))
            elif _under(child, base) and not ignored(child, chain) and _keeps_entry(root, entry):
                files.append(child)
                complete = complete and _is_regular(entry)
            else:
                # Ignored, not a file, or a symlink to a directory (git lists it; it is no file).
                complete = False
        yield files, relative_dir if complete and files else None


def _is_real_directory(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _under(path: str, base: str) -> bool:
    return base in (".", path) or path.startswith(base + "/")


def _on_route(directory: str, base: str) -> bool:
    # Descend into `base` and everything below it, plus the directories leading down to it.
    return _under(directory, base) or base.startswith(directory + "/")
