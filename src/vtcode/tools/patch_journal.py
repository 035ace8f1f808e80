"""The undo journal of a multi-file edit: a crash (kill -9, power loss) never leaves a patch half applied.

Before the first file of an edit set is replaced, the journal records, durably (fsynced), every file's
pre-image, a hash of its new content, the temporary name its new content is written under and the
directories the edit will create. It is removed once the edit set is done (or undone). A journal
still present at start-up belongs to an edit that a crash interrupted: `recover` rolls it back —
each file still in its new state gets its pre-image back, files the edit added are removed, temporary
files and created directories go — so the patch is either wholly applied (journal removed) or not at
all. A file changed since by someone else (neither its old nor its new content) is left alone and
named. Journals live under `$VTCODE_HOME/patch-journal/` (out of commands' reach), one per edit set;
the writing process holds an exclusive `flock` on it, so a second vtcode opening the same workspace
never rolls back an edit that is still running.

An edit set in an added folder (`--add-dir`) is journaled the same way; its journal also names the
workspace of the session that wrote it, so resuming there rolls it back even without `--add-dir`, as
does any session that opens the folder or adds it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import secrets
from collections.abc import Iterator, Sequence
from pathlib import Path

import msgspec

from vtcode.exec.file_lock import unless_locked
from vtcode.protocol.errors import ToolError
from vtcode.tools.beneath import (
    entry_stat,
    read_bytes,
    relative_parts,
    remove_empty_directory,
    remove_file,
    replace_file,
)

log = logging.getLogger(__name__)

JOURNAL_DIR_NAME = "patch-journal"
_SUFFIX = ".journal"


class JournalEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One file of the edit set, as it was before and as the edit leaves it."""

    display: str
    # None: the file did not exist before the edit.
    original: bytes | None
    mode: int | None
    # sha256 of the new content; None: the edit deletes the file.
    new_sha256: str | None
    # The temporary name the new content is written under, in the file's directory.
    tmp: str


class Journal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An edit set in progress in one folder (the workspace, or an added one)."""

    schema_version: int
    # The folder the entries are relative to (named so for the journals of older versions).
    workspace: str
    entries: tuple[JournalEntry, ...]
    # Directories the edit set creates, parents first (workspace-relative).
    created_dirs: tuple[str, ...] = ()
    # The workspace of the session that wrote it, when `workspace` is an added folder.
    session_workspace: str | None = None


class PlannedWrite(msgspec.Struct, frozen=True):
    """One file to write: its resolved workspace-relative path, old and new content, mode, temp name."""

    display: str
    original: bytes | None
    new: bytes | None
    mode: int | None
    tmp: str


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def missing_directories(root: Path, displays: Sequence[str]) -> tuple[str, ...]:
    """The parent directories of `displays` that do not exist yet, parents first."""
    missing: dict[str, None] = {}
    for display in displays:
        parts = relative_parts(display)[:-1]
        for depth in range(1, len(parts) + 1):
            parent = "/".join(parts[:depth])
            if parent not in missing and entry_stat(root, parent) is None:
                missing[parent] = None
    return tuple(missing)


@contextlib.contextmanager
def journaled(
    journal_dir: Path | None,
    root: Path,
    writes: Sequence[PlannedWrite],
    *,
    session_workspace: Path | None = None,
) -> Iterator[None]:
    """Hold a durable journal of `writes` (under an exclusive lock) while the block applies them.

    The journal is removed when the block ends, whether it applied or undid the edits itself; only a
    crash leaves it behind for `recover`. Without a `journal_dir` the block runs unjournaled.
    `session_workspace`: the session's workspace, when `root` is an added folder.
    """
    if journal_dir is None or not writes:
        yield
        return
    journal = Journal(
        schema_version=1,
        workspace=str(root),
        entries=tuple(
            JournalEntry(w.display, w.original, w.mode, None if w.new is None else _sha(w.new), w.tmp)
            for w in writes
        ),
        created_dirs=missing_directories(root, [w.display for w in writes if w.new is not None]),
        session_workspace=None if session_workspace is None else str(session_workspace),
    )
    try:
        os.makedirs(journal_dir, mode=0o700, exist_ok=True)
        path = journal_dir / f"{secrets.token_hex(8)}{_SUFFIX}"
        fd = _write_durably(journal_dir, path, msgspec.json.encode(journal))
    except OSError as exc:
        # A read-only or full home must not stop every patch: it is applied, still all or nothing
        # within this process, only without protection against a crash.
        log.warning("patch journal unavailable in %s (%s); applying without it", journal_dir, exc)
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
            _fsync_dir(journal_dir)
        os.close(fd)


def _write_durably(directory: Path, path: Path, data: bytes) -> int:
    """Write `path` whole (temp, fsync, rename, fsync dir) and return a descriptor holding its flock."""
    tmp = directory / f".{path.name}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        os.rename(tmp, path)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(directory)
    return fd


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def recover(journal_dir: Path, root: Path, added: Sequence[Path] = ()) -> list[str]:
    """Roll back the edit sets a crash interrupted in workspace `root`, in the added folders of its
    sessions and in the folders of `added` (resolved); one message per edit set undone."""
    try:
        names = sorted(os.listdir(journal_dir))
    except (FileNotFoundError, NotADirectoryError):
        return []
    messages: list[str] = []
    for name in names:
        path = journal_dir / name
        if name.startswith(".") and name.endswith(".tmp"):
            _remove_stale_temp(path)
            continue
        if not name.endswith(_SUFFIX):
            continue
        message = _recover_one(path, journal_dir, root, added)
        if message is not None:
            messages.append(message)
    return messages


def _remove_stale_temp(path: Path) -> None:
    # A journal that never became durable: its edit set had not started writing.
    with unless_locked(path) as fd, contextlib.suppress(OSError):
        if fd is not None:
            os.unlink(path)


def _recover_one(path: Path, journal_dir: Path, root: Path, added: Sequence[Path]) -> str | None:
    with unless_locked(path) as fd:
        if fd is None:
            return None  # gone, or its vtcode is still applying it
        with os.fdopen(os.dup(fd), "rb") as handle:
            raw = handle.read()
        try:
            journal = msgspec.json.decode(raw, type=Journal)
        except msgspec.DecodeError:
            log.warning("unreadable patch journal %s left in place", path)
            return None
        if not _belongs(journal, root, added):
            return None
        kept = _roll_back(Path(journal.workspace), journal)
        os.unlink(path)
        _fsync_dir(journal_dir)
    undone = len(journal.entries) - len(kept)
    where = "" if journal.workspace == str(root) else f" in the added folder {journal.workspace}"
    message = f"an edit of {len(journal.entries)} files{where} was interrupted by a crash; it was rolled back"
    if kept:
        shown = ", ".join(kept[:5]) + (" ..." if len(kept) > 5 else "")
        message += f" ({undone} restored; left as found, changed since: {shown})"
    return message


def _belongs(journal: Journal, root: Path, added: Sequence[Path]) -> bool:
    """Whether a session in workspace `root` with the folders `added` rolls `journal` back."""
    if journal.workspace == str(root) or journal.session_workspace == str(root):
        return True
    return any(journal.workspace == str(folder) for folder in added)


def _roll_back(root: Path, journal: Journal) -> list[str]:
    """Restore every file still in its new state; the files that were changed since, left alone."""
    kept: list[str] = []
    for entry in reversed(journal.entries):
        try:
            _discard_temp(root, entry)
            current = read_bytes(root, entry.display)
            if current == entry.original:
                continue
            new_state = (
                current is None
                if entry.new_sha256 is None
                else current is not None and _sha(current) == entry.new_sha256
            )
            if not new_state:
                kept.append(entry.display)
                continue
            restore(root, entry.display, entry.original, entry.mode)
        except (OSError, ToolError) as exc:
            log.error("could not roll back %s: %s", entry.display, exc)
            kept.append(entry.display)
    remove_created(root, journal.created_dirs)
    return kept


def restore(root: Path, display: str, original: bytes | None, mode: int | None) -> None:
    """Put a file back as it was before the patch: removed when it did not exist then."""
    if original is None:
        remove_file(root, display)
    else:
        replace_file(root, display, original, mode=mode)


def remove_created(root: Path, created_dirs: Sequence[str]) -> None:
    """Remove the directories the patch created, newest first, where they are empty again."""
    for directory in reversed(created_dirs):
        with contextlib.suppress(OSError, ToolError):
            remove_empty_directory(root, directory)


def _discard_temp(root: Path, entry: JournalEntry) -> None:
    parent = "/".join(relative_parts(entry.display)[:-1]) or "."
    temp = entry.tmp if parent == "." else f"{parent}/{entry.tmp}"
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        remove_file(root, temp)


def recover_interrupted_edits(journal_dir: Path, workspace: Path, added: Sequence[Path] = ()) -> list[str]:
    """`recover` for a session opening `workspace` with the folders `added` (`--add-dir`); nothing to
    do (the usual case) costs one listdir."""
    if not os.path.isdir(journal_dir):
        return []
    try:
        root = Path(os.path.realpath(workspace))
        folders = [Path(os.path.realpath(folder)) for folder in added]
    except OSError:
        return []
    return recover(journal_dir, root, folders)
