"""Checkpoints at the turn loop's boundaries: every file state a rewind may need, recorded as the turn runs.

Layer 1 (always): before an edit tool runs, the pre-image of each path it names is kept (bytes and
mode, or absent), and after it runs, the new state: keyed by turn and call, at the dispatch boundary
every tool call passes (main agent, MCP tools, future subagents). Layer 2 (`[checkpoints] tree`, when
git exists): a tree snapshot in a private git directory at each user-turn start and after each call
that may change files behind vtcode's back (commands, session input, external tools); the difference
between consecutive snapshots is what that call changed, recorded and shown.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from vtcode.config.schema import CheckpointSettings
from vtcode.core.rewind_plan import FileState
from vtcode.exec.git_repo import GitAccess
from vtcode.exec.shadow_git import ShadowGit, ShadowGitError, SnapshotLimits, TreeEntry
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.messages import Message, MessageMeta, ToolCall, UserMessage
from vtcode.runtime.emitter import Emitter
from vtcode.store.checkpoints import (
    ChangeRecord,
    CheckpointStore,
    DirsRecord,
    SnapshotRecord,
    TurnRecord,
    read_state,
)
from vtcode.store.file_stamps import look, with_mode
from vtcode.store.made_dirs import missing_parents, parents

if TYPE_CHECKING:
    from vtcode.runtime.checkpoint_gc import GcReport
    from vtcode.tools.base import CallDescription, Tool, ToolOutcome

log = logging.getLogger(__name__)

# Tool kinds whose writes are known before they run; every other kind (commands, session input,
# MCP and any future kind, a subagent's) is followed by a tree snapshot.
_KNOWN_KINDS = frozenset({"read", "edit"})
# Above this many folders over a command's new files, the folders it made are not recorded.
_MAX_FOLDERS = 500
NOT_COVERED = (
    "checkpoints cover vtcode's own edits only: git is not available, so changes made by commands "
    "are not captured and a rewind cannot undo them"
)


def tree_state(entry: TreeEntry | None) -> FileState | None:
    """A snapshot entry as a file state (git keeps only the executable bit)."""
    if entry is None or entry.mode == "160000":
        return None
    if entry.mode == "120000":
        return FileState(entry.oid, 0o777, link=True)
    return FileState(entry.oid, 0o755 if entry.mode == "100755" else 0o644)


class Checkpointer:
    """Records a session's checkpoints; the turn loop and the tool dispatcher call it."""

    def __init__(
        self,
        *,
        store: CheckpointStore,
        workspace: Path,
        settings: CheckpointSettings,
        shadow: ShadowGit | None,
        user_git: GitAccess | None,
        emitter: Emitter,
        history_seq: Callable[[], int],
        clock: Callable[[], float],
        prune: Callable[[int], GcReport] | None = None,
        extra_roots: Sequence[Path] = (),
        jobs_running: Callable[[], bool] = lambda: False,
    ) -> None:
        self.store = store
        self.workspace = workspace
        # Folders added with --add-dir: vtcode's edits there are kept by absolute path.
        self._extra_roots = tuple(os.path.realpath(root) for root in extra_roots)
        self.shadow = shadow if shadow is not None and shadow.available and settings.tree else None
        self._user_git = user_git
        self._emitter = emitter
        self._history_seq = history_seq
        self._clock = clock
        # Over the quota: drop older sessions' checkpoints down to the given bytes.
        self._prune = prune
        self._limits = SnapshotLimits(
            max_file_bytes=settings.max_file_mb * 1024 * 1024,
            max_folder_files=settings.max_untracked_folder_files,
        )
        self._quota = settings.quota_mb * 1024 * 1024
        self._tree_wanted = settings.tree
        # Edits since the last snapshot: a command's snapshot shows them too, but they are not its doing.
        self._edited: dict[str, FileState | None] = {}
        self._turn = 0
        self._tree: str | None = None
        # When each call went off: a file whose inode changed last before that is not the call's doing.
        self._started: dict[str, float] = {}
        self._tree_at = 0.0  # when the last snapshot began
        # Whether a command kept running after its call (a job): what it writes between calls is its
        # doing, so the next call is credited with all that changed since the snapshot before.
        self._jobs_running = jobs_running
        self._jobs_left = False
        self._pre: dict[str, dict[str, FileState | None]] = {}
        self._pre_dirs: dict[str, set[str]] = {}
        self._warned_no_git = False
        self._failed = False
        self._quota_checked = False
        # A snapshot is due before the turn's first command (its base).
        self._base_pending = True
        # The fsyncs of the turn's record, run while the turn's first request goes out.
        self._syncing: asyncio.Task[None] | None = None

    @property
    def covers_commands(self) -> bool:
        """Whether command side effects are captured (layer 2 on)."""
        return self.shadow is not None

    async def turn_start(self, turn: int, prompt: str) -> Sequence[Message]:
        """A user turn begins: record it; returns the note a code-only rewind left, if any.

        Nothing here waits (an interrupt now must not lose the prompt, stored right after): the tree
        snapshot the turn's first command is compared with is taken just before that command runs.
        """
        await self.settle()
        self._turn = turn
        self._base_pending = True
        if not self._warned_no_git:
            self._warned_no_git = True
            if self.shadow is None and self._tree_wanted:
                self._emitter.warn(NOT_COVERED)
            elif self.shadow is not None and self._extra_roots:
                self._emitter.warn(
                    "checkpoints cover vtcode's own edits in the added folders, not what commands "
                    f"change in {', '.join(self._extra_roots)}: a rewind cannot undo that"
                )
        try:
            record = TurnRecord(
                seq=self.store.next_seq(),
                turn=turn,
                prompt=prompt,
                history_seq=self._history_seq(),
                created_at=self._clock(),
            )
            # In the file now (a killed process keeps it); its fsyncs (~1 ms each, far more on a busy
            # disk) are not worth delaying the first request for: they run meanwhile, off the loop.
            self.store.append([record], sync=False)
            self._syncing = asyncio.create_task(self._sync(), name="vtcode-checkpoint-sync")
            note = self.store.take_note()
        except (VtcodeError, OSError) as exc:
            self._not_recorded(exc)
            return []
        if not note:
            return []
        return [UserMessage(note, meta=MessageMeta(kind="context", turn=turn))]

    async def before_call(self, tool: Tool, call: ToolCall, described: CallDescription) -> None:
        """Keep the pre-image of every path an edit names; before a turn's first command, a snapshot."""
        try:
            await self._before_call(tool, call, described)
        except (VtcodeError, OSError) as exc:
            self._not_recorded(exc)

    async def after_call(
        self, tool: Tool, call: ToolCall, described: CallDescription, outcome: ToolOutcome
    ) -> None:
        """Record what the call changed (edits from their pre-images, others from a snapshot)."""
        try:
            await self._after_call(tool, call, described, outcome)
        except (VtcodeError, OSError) as exc:
            self._not_recorded(exc)

    def _not_recorded(self, exc: VtcodeError | OSError) -> None:
        """A checkpoint store that fails costs rewinds, never the work: said once, the session goes on."""
        if self._failed:
            return
        self._failed = True
        reason = exc.message if isinstance(exc, VtcodeError) else str(exc)
        self._emitter.warn(
            f"checkpoints not recorded ({reason}): a rewind cannot undo this session's changes"
        )

    async def _before_call(self, tool: Tool, call: ToolCall, described: CallDescription) -> None:
        await self.settle()
        if tool.kind not in _KNOWN_KINDS and self.shadow is not None and self._base_pending:
            self._base_pending = False
            tree = await self._snapshot(check_folders=True)
            if tree is not None:
                record = SnapshotRecord(
                    seq=self.store.next_seq(), turn=self._turn, call="turn-start", tree=tree
                )
                await asyncio.to_thread(self.store.append, [record])
            self._edited = {}
        if tool.kind not in _KNOWN_KINDS:
            jobs = self._jobs_left or self._jobs_running()
            self._started[call.id] = 0.0 if jobs else self._clock()
        if tool.kind != "edit":
            return
        pre = await asyncio.to_thread(self._capture, described.paths)
        self._pre[call.id] = pre
        absent = [rel for rel, state in pre.items() if state is None]
        self._pre_dirs[call.id] = {d for rel in absent for d in missing_parents(self.workspace, rel)}

    async def _after_call(
        self, tool: Tool, call: ToolCall, described: CallDescription, outcome: ToolOutcome
    ) -> None:
        if tool.kind == "edit":
            pre = self._pre.pop(call.id, {})
            named = [*pre, *(p for c in outcome.changes for p in (c.path, c.move_to) if p)]
            await asyncio.to_thread(self._record_edit, call, pre, named)
            made = [d for d in sorted(self._pre_dirs.pop(call.id, ())) if (self.workspace / d).is_dir()]
            await asyncio.to_thread(self._record_dirs, call, made)
        elif tool.kind not in _KNOWN_KINDS and self.shadow is not None:
            changed = await self._record_snapshot(call)
            self._jobs_left = self._jobs_running()
            if changed:
                shown = ", ".join(changed[:20]) + (
                    f" and {len(changed) - 20} more" if len(changed) > 20 else ""
                )
                name = described.display if tool.kind != "external" and described.display else call.name
                self._emitter.inform(f"`{name}` changed {len(changed)} file(s): {shown}")

    async def rebase(self) -> None:
        """Files changed outside a call (a rewind): the next command is compared with them as they are."""
        await self.settle()
        self._base_pending = True

    # -- inside ---------------------------------------------------------------------------------------

    async def _sync(self) -> None:
        try:
            await asyncio.to_thread(self.store.sync)
        except (VtcodeError, OSError) as exc:
            self._emitter.warn(f"checkpoint not made durable: {exc}")

    async def settle(self) -> None:
        """The turn record's fsyncs are done: before any later record (records stay in order on disk), and
        before the session closes (its loop may stop right after, and a task left pending is dropped)."""
        if self._syncing is not None:
            syncing, self._syncing = self._syncing, None
            await syncing

    def _relative(self, named: str) -> str | None:
        """`named` relative to the workspace, or absolute in an added folder; None elsewhere."""
        path = Path(named)
        full = os.path.normpath(path if path.is_absolute() else self.workspace / path)
        rel = os.path.relpath(full, self.workspace)
        if not rel.startswith("..") and rel != ".":
            return rel.replace(os.sep, "/")
        # Where the file really is: the restore writes there only while no link has been put in the way.
        real = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
        inside = any(real.startswith(root.rstrip("/") + "/") for root in self._extra_roots)
        return real if inside else None

    def _capture(self, named: Sequence[str]) -> dict[str, FileState | None]:
        states: dict[str, FileState | None] = {}
        for name in named:
            rel = self._relative(name)
            if rel is None or rel in states:
                continue
            try:
                state, data = read_state(self.workspace / rel)
                if data is not None:
                    self.store.put_blob(data)
            except OSError as exc:
                log.info("no pre-image of %s: %s", rel, exc)
                continue
            states[rel] = state
        return states

    def _record_edit(self, call: ToolCall, pre: dict[str, FileState | None], named: Sequence[str]) -> None:
        records: list[ChangeRecord] = []
        for name in dict.fromkeys(named):
            rel = self._relative(name)
            if rel is None or rel not in pre:
                continue
            try:
                after, _ = read_state(self.workspace / rel)
            except OSError:
                continue
            before = pre[rel]
            if before == after:
                continue
            self._edited[rel] = after
            records.append(self._change(call, rel, before, after))
        self.store.append(records)

    def _record_made_dirs(self, call: ToolCall, shadow: ShadowGit, base: str, created: Sequence[str]) -> None:
        """The folders above `created` that the snapshot before the call did not have."""
        folders = sorted({d for rel in created for d in parents(rel)})
        if not folders or len(folders) > _MAX_FOLDERS:
            return  # a tree of new folders (an install): left in place rather than one long git run
        try:
            had = shadow.entries(base, folders)
        except ShadowGitError as exc:
            log.info("no folders of the snapshot: %s", exc)
            return
        self._record_dirs(call, [d for d in folders if d not in had and (self.workspace / d).is_dir()])

    def _record_dirs(self, call: ToolCall, made: Sequence[str]) -> None:
        if made:
            self.store.append([DirsRecord(self.store.next_seq(), self._turn, call.id, tuple(made))])

    def _change(
        self, call: ToolCall, path: str, before: FileState | None, after: FileState | None
    ) -> ChangeRecord:
        """What `call` did to `path` in this turn, numbered next in the store."""
        return ChangeRecord(
            seq=self.store.next_seq(),
            turn=self._turn,
            call=call.id,
            tool=call.name,
            path=path,
            before=before,
            after=after,
        )

    async def _snapshot(self, *, check_folders: bool) -> str | None:
        shadow = self.shadow
        if shadow is None:
            return None
        started = self._clock()
        user_git = self._user_git if check_folders else None
        try:
            tree, skipped = await asyncio.to_thread(shadow.snapshot, self._limits, user_git)
        except ShadowGitError as exc:
            self._emitter.warn(f"checkpoint snapshot failed: {exc}")
            return None
        for path in skipped:
            what = "folder with many untracked files" if path.endswith("/") else "file over the size limit"
            self._emitter.warn(f"checkpoints leave out {path} ({what}); a rewind will not restore it")
        if not self._quota_checked:
            self._quota_checked = True
            await self._check_quota(shadow)
        self._tree, self._tree_at = tree, started
        return tree

    async def _check_quota(self, shadow: ShadowGit) -> None:
        used = await asyncio.to_thread(shadow.disk_bytes)
        if used <= self._quota:
            return
        mib = 1024 * 1024
        message = f"checkpoints use {used // mib} MiB, over the {self._quota // mib} MiB quota"
        if self._prune is None:
            message += ": run `vtcode checkpoints gc`"
        else:
            report = await asyncio.to_thread(self._prune, self._quota)
            message += (
                f": dropped the checkpoints of {report.sessions_dropped} older session(s), "
                f"now {report.bytes_after // mib} MiB"
            )
        self._emitter.warn(message)

    async def _record_snapshot(self, call: ToolCall) -> list[str]:
        shadow = self.shadow
        # With a job running, at least what predates the last snapshot is not the call's doing (a file
        # made visible by an edit of `.gitignore`).
        base, since = self._tree, max(self._started.pop(call.id, 0.0), self._tree_at)
        after = await self._snapshot(check_folders=False)
        if shadow is None or base is None or after is None:
            return []
        try:
            diff = await asyncio.to_thread(shadow.diff, base, after)
        except ShadowGitError as exc:
            log.info("no diff of the snapshots: %s", exc)
            return []
        records: list[ChangeRecord | SnapshotRecord] = [
            SnapshotRecord(seq=self.store.next_seq(), turn=self._turn, call=call.id, tree=after)
        ]
        modes, untouched = await asyncio.to_thread(
            look, self.workspace, [change.path for change in diff], since
        )
        for change in diff:
            if change.path in untouched:
                continue  # changed before the call went off (a removal cannot be told: it counts)
            old, new = tree_state(change.before), tree_state(change.after)
            mode = modes.get(change.path)
            records.append(self._change(call, change.path, with_mode(old, mode), with_mode(new, mode)))
        await asyncio.to_thread(self.store.append, records)
        created = [r.path for r in records if isinstance(r, ChangeRecord) and r.before is None and r.after]
        await asyncio.to_thread(self._record_made_dirs, call, shadow, base, created)
        edited, self._edited = self._edited, {}
        return [
            r.path
            for r in records
            if isinstance(r, ChangeRecord) and (r.path not in edited or edited[r.path] != r.after)
        ]
