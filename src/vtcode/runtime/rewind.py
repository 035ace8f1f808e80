"""Rewind a session to the start of a user turn: its files, its conversation or both; and redo.

Only paths some call changed in that turn or later are touched. A path whose current state is not
the one vtcode last recorded was edited by hand: a conflict, kept unless `force`. Before any file
changes, the redo point (every touched path as it is now) and the plan are written to a journal;
each file is replaced atomically; a restore killed half-way is finished by the next rewind.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import msgspec

from vtcode.core.rewind_plan import RESTORE_CALLS, FileState, PlannedPath, plan, targets
from vtcode.exec.shadow_git import ShadowGit, ShadowGitError
from vtcode.protocol.errors import UsageError, VtcodeError
from vtcode.store.checkpoints import (
    ChangeRecord,
    CheckpointStore,
    Journal,
    PathState,
    Record,
    RestoreRecord,
    TurnRecord,
    read_state,
)
from vtcode.store.made_dirs import prune_made_dirs
from vtcode.store.restore_files import UnsafePathError, put_in_place, remove_leftovers
from vtcode.store.session import SessionStore
from vtcode.store.session_fork import fork_session

Scope = Literal["code", "conversation", "both"]


@dataclass(frozen=True)
class RewindResult:
    """What a rewind found and did (`applied` False: a preview)."""

    turn: TurnRecord | None
    planned: tuple[PlannedPath, ...]
    applied: tuple[str, ...] = ()
    kept_conflicts: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()
    fork_id: str | None = None
    finished_interrupted: bool = False


@dataclass(frozen=True)
class RewindTarget:
    """Where a session's checkpoints are and what reads its snapshots."""

    home: Path
    session_id: str
    workspace: Path
    env: Mapping[str, str]
    clock: Callable[[], float]
    new_id: Callable[[], str]

    @property
    def store(self) -> CheckpointStore:
        """The session's checkpoint store."""
        return CheckpointStore(self.home, self.session_id)

    def shadow(self) -> ShadowGit:
        """The private snapshot repository of the workspace."""
        return ShadowGit(self.home, self.workspace, self.env, index_name=self.session_id)


def user_turns(target: RewindTarget) -> list[TurnRecord]:
    """The session's checkpointed user turns, oldest first."""
    return [r for r in target.store.records() if isinstance(r, TurnRecord)]


def turn_files(store: CheckpointStore) -> dict[int, list[str]]:
    """The paths each user turn changed (vtcode's edits and its commands' side effects)."""
    changed: dict[int, list[str]] = {}
    for record in store.records():
        if isinstance(record, ChangeRecord) and record.call not in RESTORE_CALLS:
            files = changed.setdefault(record.turn, [])
            if record.path not in files:
                files.append(record.path)
    return changed


def finish_interrupted(target: RewindTarget) -> bool:
    """Complete a restore a crash interrupted; whether there was one."""
    store = target.store
    journal = store.journal()
    if journal is None:
        return False
    _put_all(target.workspace, store, journal.entries, finishing=True)
    store.append([*journal.changes, journal.record])
    store.clear_journal()
    return True


def rewind(
    target: RewindTarget, to_turn: int, scope: Scope, *, apply: bool, force: bool = False
) -> RewindResult:
    """Preview (`apply` False) or perform a rewind to the start of `to_turn`; raises `VtcodeError`."""
    finished = finish_interrupted(target)
    store = target.store
    turns = user_turns(target)
    turn = next((t for t in turns if t.turn == to_turn), None)
    if turn is None:
        known = ", ".join(str(t.turn) for t in turns) or "none"
        raise UsageError(
            f"session {target.session_id} has no checkpoint for turn {to_turn} (turns: {known})",
            hint="`vtcode rewind --list` shows the turns",
        )
    planned: list[PlannedPath] = []
    if scope != "conversation":
        wanted = targets(store.changes(), to_turn)
        planned = plan(wanted, _current(target.workspace, wanted))
    if not apply:
        return RewindResult(turn, tuple(planned), finished_interrupted=finished)
    last_turn = turns[-1].turn
    applied, kept, failed = _restore(target, planned, to_turn, scope, last_turn, force=force)
    fork_id = None
    if scope == "code" and applied:
        store.set_note(_note(to_turn, applied))
    if scope != "code":
        fork_id = _fork(target, turn, carry_restore=bool(applied))
    return RewindResult(turn, tuple(planned), applied, kept, failed, fork_id, finished)


def redo(target: RewindTarget, *, apply: bool, force: bool = False) -> RewindResult:
    """Undo the last rewind's file changes (its redo point); raises `UsageError` when there is none."""
    finished = finish_interrupted(target)
    store = target.store
    restores = [r for r in store.records() if isinstance(r, RestoreRecord)]
    if not restores or restores[-1].is_redo or not restores[-1].redo:
        raise UsageError("nothing to redo: the last change was not a rewind of files")
    last = restores[-1]
    applied_states = {e.path: e.state for e in last.applied}
    wanted = {e.path: (e.state, applied_states.get(e.path)) for e in last.redo}
    planned = plan(wanted, _current(target.workspace, wanted))
    if not apply:
        return RewindResult(None, tuple(planned), finished_interrupted=finished)
    done, kept, failed = _restore(target, planned, last.to_turn, "code", last.turn, force=force, is_redo=True)
    return RewindResult(None, tuple(planned), done, kept, failed, None, finished)


def _current(workspace: Path, paths: Mapping[str, object]) -> dict[str, FileState | None]:
    states: dict[str, FileState | None] = {}
    for path in paths:
        try:
            states[path], _ = read_state(workspace / path)
        except OSError:
            states[path] = None
    return states


def _restore(
    target: RewindTarget,
    planned: Sequence[PlannedPath],
    to_turn: int,
    scope: str,
    last_turn: int,
    *,
    force: bool,
    is_redo: bool = False,
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    store = target.store
    kept = tuple(p.path for p in planned if p.conflict and not force)
    chosen = [p for p in planned if force or not p.conflict]
    entries: list[PathState] = []
    redo_points: list[PathState] = []
    failed: list[str] = []
    missing = {p.target.oid for p in chosen if p.target is not None and not store.has_blob(p.target.oid)}
    if missing:
        try:
            for found in target.shadow().read_blobs(missing).values():
                store.put_blob(found)
        except ShadowGitError:
            pass  # the paths whose content is missing fail below
    for entry in chosen:
        state = entry.target
        if state is not None and not store.has_blob(state.oid):
            failed.append(entry.path)
            continue
        try:
            now, content = read_state(target.workspace / entry.path)
            if content is not None:
                store.put_blob(content)
        except OSError:
            failed.append(entry.path)
            continue
        entries.append(PathState(entry.path, state))
        redo_points.append(PathState(entry.path, now))
    call = "redo" if is_redo else "rewind"
    record = RestoreRecord(
        seq=store.next_seq(), turn=last_turn, to_turn=to_turn, scope=scope,
        applied=tuple(entries), redo=tuple(redo_points), is_redo=is_redo,
    )  # fmt: skip
    changes = tuple(
        ChangeRecord(
            seq=store.next_seq(),
            turn=last_turn,
            call=call,
            tool=call,
            path=e.path,
            before=r.state,
            after=e.state,
        )
        for e, r in zip(entries, redo_points, strict=True)
    )
    if not entries:
        return (), kept, tuple(failed)
    ordered = _in_order(entries)
    store.write_journal(Journal(entries=ordered, record=record, changes=changes))
    _put_all(target.workspace, store, ordered, finishing=False)
    if not is_redo:
        removed = [e.path for e in ordered if e.state is None]
        prune_made_dirs(target.workspace, removed, store.made_dirs(to_turn))
    store.append([*changes, record])
    store.clear_journal()
    return tuple(e.path for e in entries), kept, tuple(failed)


def _in_order(entries: Sequence[PathState]) -> tuple[PathState, ...]:
    """Removals first, deepest first, then the rest: a folder a command made where a file was is
    emptied before the file comes back, and a file made where a folder was is gone before its files."""
    removals = sorted((e for e in entries if e.state is None), key=lambda e: (-e.path.count("/"), e.path))
    return (*removals, *sorted((e for e in entries if e.state is not None), key=lambda e: e.path))


def _put_all(
    workspace: Path, store: CheckpointStore, entries: Sequence[PathState], *, finishing: bool
) -> None:
    """Put every entry in place; raises `VtcodeError` naming the path that could not be."""
    for entry in entries:
        data = store.blob(entry.state.oid) if entry.state is not None else None
        try:
            if finishing:
                remove_leftovers(workspace, entry.path)
            put_in_place(workspace, entry.path, entry.state, data)
        except (OSError, UnsafePathError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise VtcodeError(
                f"could not restore {entry.path}: {reason}",
                hint="fix the cause and run `vtcode rewind --to` again: it completes the restore",
            ) from exc


def _note(to_turn: int, paths: Sequence[str]) -> str:
    listed = "\n".join(f"- {p}" for p in paths)
    return (
        f"Note: the user rewound the workspace files to how they were before turn {to_turn}; the "
        f"conversation was kept. These files changed under you, so read them again before relying on "
        f"earlier results:\n{listed}"
    )


def _fork(target: RewindTarget, turn: TurnRecord, *, carry_restore: bool) -> str:
    sessions = SessionStore(target.home, clock=target.clock, new_id=target.new_id)
    source = sessions.open(target.session_id)
    fork = fork_session(sessions, source, upto_seq=turn.history_seq, turns=turn.turn - 1)
    # The branch keeps the checkpoints of the turns it still has.
    old, new = target.store, CheckpointStore(target.home, fork.id)
    records = old.records()
    kept: list[Record] = [r for r in records if not isinstance(r, RestoreRecord) and r.turn < turn.turn]
    if carry_restore:
        # The branch is where the user goes on (the front ends open it, `vtcode rewind` picks it as the
        # workspace's latest session): the redo point of the file restore just made goes with it.
        kept += _last_restore(records, turn.turn - 1)
    if (old.dir / "blobs").exists():
        shutil.copytree(old.dir / "blobs", new.dir / "blobs", copy_function=_link_or_copy)
    new.append(kept)
    return fork.id


def _last_restore(records: Sequence[Record], turn: int) -> list[Record]:
    """The last restore's change records and record (renumbered into `turn`), in their file order."""
    last = next((r for r in reversed(records) if isinstance(r, RestoreRecord)), None)
    if last is None:
        return []
    # `_restore` numbers the record first and its changes after it, then appends changes, record.
    mine = range(last.seq + 1, last.seq + len(last.applied) + 1)
    carried = [
        r for r in records if isinstance(r, ChangeRecord) and r.call in RESTORE_CALLS and r.seq in mine
    ]
    moved: list[Record] = [msgspec.structs.replace(r, turn=turn) for r in carried]
    return [*moved, msgspec.structs.replace(last, turn=turn)]


def _link_or_copy(src: str, dst: str) -> None:
    try:
        Path(dst).hardlink_to(src)
    except OSError:
        shutil.copy2(src, dst)
