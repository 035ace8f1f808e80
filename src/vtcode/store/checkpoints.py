"""A session's checkpoint store under `$VTCODE_HOME/checkpoints/<session-id>/`.

`manifest.jsonl` records user turns (with the history position and the tree snapshot taken at their
start), every change a call made to a path (states before and after) and every restore with its redo
point. `blobs/` keeps file contents by git blob id, so a pre-image needs no git. `restore.json` is the
journal of a restore in progress: written before the first file changes, removed after the last, so
a restore killed half-way is finished by the next `vtcode rewind`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path

import msgspec

from vtcode.core.rewind_plan import Change, FileState
from vtcode.store.atomic import atomic_write, fsync_dir
from vtcode.store.errors import store_error
from vtcode.store.jsonl import JsonlLog

CHECKPOINTS_DIR = "checkpoints"
MANIFEST = "manifest.jsonl"
JOURNAL = "restore.json"
NOTE = "next-note.txt"


class TurnRecord(msgspec.Struct, frozen=True, tag="turn", forbid_unknown_fields=True):
    """A user turn began: its prompt, the history seq before it, the tree snapshot at its start."""

    seq: int
    turn: int
    prompt: str
    history_seq: int
    created_at: float
    tree: str | None = None


class ChangeRecord(msgspec.Struct, frozen=True, tag="change", forbid_unknown_fields=True):
    """One call changed one path (`call` is the tool call id, or rewind/redo)."""

    seq: int
    turn: int
    call: str
    tool: str
    path: str
    before: FileState | None
    after: FileState | None


class PathState(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A path and a state (None: absent)."""

    path: str
    state: FileState | None


class RestoreRecord(msgspec.Struct, frozen=True, tag="restore", forbid_unknown_fields=True):
    """A restore: what it set (`applied`) and what the files were before it (`redo`)."""

    seq: int
    turn: int
    to_turn: int
    scope: str
    applied: tuple[PathState, ...]
    redo: tuple[PathState, ...]
    fork: str | None = None
    # True for a `/redo`, which undoes the restore before it.
    is_redo: bool = False


class SnapshotRecord(msgspec.Struct, frozen=True, tag="snapshot", forbid_unknown_fields=True):
    """The tree snapshot taken after a call (kept by `vtcode checkpoints gc`)."""

    seq: int
    turn: int
    call: str
    tree: str


class DirsRecord(msgspec.Struct, frozen=True, tag="dirs", forbid_unknown_fields=True):
    """The folders a call made (workspace-relative): a rewind of its turn removes them once empty."""

    seq: int
    turn: int
    call: str
    made: tuple[str, ...]


Record = TurnRecord | ChangeRecord | RestoreRecord | SnapshotRecord | DirsRecord


class Journal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A restore in progress: the states to put in place, and the record to append once they are."""

    entries: tuple[PathState, ...]
    record: RestoreRecord
    changes: tuple[ChangeRecord, ...]


_encode = msgspec.json.Encoder().encode
_decode_record = msgspec.json.Decoder(Record).decode
_decode_journal = msgspec.json.Decoder(Journal).decode


def blob_id(data: bytes) -> str:
    """The git blob id of `data` (so pre-images and tree snapshots compare without git)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def read_state(path: Path) -> tuple[FileState | None, bytes | None]:
    """The state and content of a workspace path (None, None when absent or not a file or link)."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None, None
    if stat.S_ISLNK(info.st_mode):
        data = os.fsencode(os.readlink(path))
        return FileState(blob_id(data), 0o777, link=True), data
    if not stat.S_ISREG(info.st_mode):
        return None, None
    data = path.read_bytes()
    return FileState(blob_id(data), stat.S_IMODE(info.st_mode)), data


class CheckpointStore:
    """One session's checkpoints (created on first write)."""

    def __init__(self, home: Path, session_id: str) -> None:
        self.dir = home / CHECKPOINTS_DIR / session_id
        self._log: JsonlLog[Record] = JsonlLog(self.dir / MANIFEST, encode=_encode, decode=_decode_record)
        self._seq: int | None = None

    @property
    def exists(self) -> bool:
        """Whether anything was recorded for this session."""
        return (self.dir / MANIFEST).exists()

    def records(self) -> list[Record]:
        """Every record in order (a torn last line is skipped)."""
        return self._log.load().records

    def next_seq(self) -> int:
        """The seq the next record gets."""
        if self._seq is None:
            self._seq = max((r.seq for r in self.records()), default=0)
        self._seq += 1
        return self._seq

    def append(self, records: Sequence[Record], *, sync: bool = True) -> None:
        """Append records durably; without `sync`, durable at the next `sync()` or synced append."""
        if not records:
            return
        self._ensure_dir()
        with self._log:
            self._log.append(records, sync=sync)

    def sync(self) -> None:
        """Make every record appended so far durable."""
        self._log.sync()

    def put_blob(self, data: bytes) -> str:
        """Keep `data` (once per content); returns its blob id."""
        oid = blob_id(data)
        target = self._blob_path(oid)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                atomic_write(target, data)
            except Exception:
                with contextlib.suppress(OSError):
                    target.unlink()
                raise
        return oid

    def blob(self, oid: str) -> bytes | None:
        """A kept content, or None."""
        try:
            return self._blob_path(oid).read_bytes()
        except FileNotFoundError:
            return None

    def has_blob(self, oid: str) -> bool:
        """Whether a content is kept here."""
        return self._blob_path(oid).exists()

    def changes(self) -> list[Change]:
        """The change records as the rewind planner reads them."""
        return [
            Change(r.seq, r.turn, r.call, r.path, r.before, r.after)
            for r in self.records()
            if isinstance(r, ChangeRecord)
        ]

    def made_dirs(self, from_turn: int) -> set[str]:
        """The folders calls made in `from_turn` or later."""
        return {
            folder
            for r in self.records()
            if isinstance(r, DirsRecord) and r.turn >= from_turn
            for folder in r.made
        }

    def trees(self) -> list[str]:
        """Every tree snapshot this session's checkpoints refer to."""
        found: list[str] = []
        for record in self.records():
            if isinstance(record, SnapshotRecord) or (isinstance(record, TurnRecord) and record.tree):
                found.append(record.tree or "")
        return found

    def write_journal(self, journal: Journal) -> None:
        """Durably note a restore before its first file changes."""
        self._ensure_dir()
        atomic_write(self.dir / JOURNAL, _encode(journal))

    def journal(self) -> Journal | None:
        """The restore a crash interrupted, if any."""
        try:
            return _decode_journal((self.dir / JOURNAL).read_bytes())
        except FileNotFoundError:
            return None

    def clear_journal(self) -> None:
        """The restore is complete."""
        with contextlib.suppress(FileNotFoundError):
            (self.dir / JOURNAL).unlink()
        fsync_dir(self.dir)

    def set_note(self, text: str) -> None:
        """A note for the model's next request (files changed under it)."""
        self._ensure_dir()
        atomic_write(self.dir / NOTE, text.encode())

    def take_note(self) -> str | None:
        """The pending note, removed."""
        path = self.dir / NOTE
        try:
            text = path.read_text()
        except FileNotFoundError:
            return None
        path.unlink()
        return text

    def _blob_path(self, oid: str) -> Path:
        return self.dir / "blobs" / oid[:2] / oid[2:]

    def _ensure_dir(self) -> None:
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise store_error(err, "create", self.dir) from err
