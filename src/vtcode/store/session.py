"""Durable sessions under `<home>/sessions/<session-id>/`: create, find, list, checkpoint, replay.

A session directory holds `meta.json` (`SessionInfo`), `history.jsonl` (the source of truth, fsynced at
every checkpoint), `events.jsonl` (the event stream, flushed, not fsynced) and `archive/` (compaction
artifacts). The home path, the clock and id generation are passed in; nothing here reads the environment.
"""

from __future__ import annotations

import builtins
import fcntl
import logging
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Self

import msgspec

from vtcode.protocol.errors import ExitCode, StoreError
from vtcode.protocol.events import Event, decode_event, encode_event
from vtcode.protocol.messages import Message
from vtcode.store.archive import CompactionEntry, read_header
from vtcode.store.atomic import fsync_dir
from vtcode.store.errors import store_error
from vtcode.store.history import (
    HISTORY_FILE,
    CompactionRecord,
    LoadedHistory,
    MessageRecord,
    history_log,
    load_history,
)
from vtcode.store.jsonl import JsonlLog
from vtcode.store.meta import META_FILE, SessionInfo, make_title, write_info
from vtcode.store.meta_recovery import session_info
from vtcode.store.status import SessionStatus, last_turn_status

logger = logging.getLogger(__name__)

SESSIONS_DIR = "sessions"
EVENTS_FILE = "events.jsonl"
ARCHIVE_DIR = "archive"

# Ids become directory names: no separators, no leading dot, nothing a shell needs quoted.
_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")

Clock = Callable[[], float]


class SessionListing(msgspec.Struct, frozen=True):
    """The readable sessions, and a user-facing sentence for each session that could not be read."""

    sessions: builtins.list[SessionInfo]
    skipped: builtins.list[str]
    # Sessions listed from a summary rebuilt from their logs (their meta.json is missing or damaged).
    rebuilt: builtins.list[str] = msgspec.field(default_factory=builtins.list)


class UnknownSessionError(StoreError):
    """The id names no stored session (or several): a usage error, not a broken store."""

    exit_code = ExitCode.USAGE


class SessionHandle:
    """One open session: appends checkpoints and events, replays its history."""

    def __init__(
        self, directory: Path, info: SessionInfo, clock: Clock, *, last_seq: int | None = None
    ) -> None:
        self.id = directory.name
        self.dir = directory
        self._info = info
        self._clock = clock
        self._history = history_log(directory / HISTORY_FILE)
        self._events: JsonlLog[Event] = JsonlLog(
            directory / EVENTS_FILE, encode=encode_event, decode=decode_event
        )
        # Known after the first load or append (or at creation); the next record gets last_seq + 1.
        self._last_seq = last_seq
        #: Said with the first replay's notices (a meta.json rebuilt from the logs when opened).
        self.pending_notice: str | None = None

    @property
    def info(self) -> SessionInfo:
        """The session's current metadata, as last written to `meta.json`."""
        return self._info

    @property
    def history_path(self) -> Path:
        """The session's `history.jsonl`."""
        return self.dir / HISTORY_FILE

    @property
    def events_path(self) -> Path:
        """The session's `events.jsonl`."""
        return self.dir / EVENTS_FILE

    @property
    def archive_dir(self) -> Path:
        """Where compaction artifacts go; created by whoever writes the first one."""
        return self.dir / ARCHIVE_DIR

    @property
    def last_seq(self) -> int:
        """The seq of the last record in `history.jsonl` (0 for an empty history)."""
        return self._next_seq() - 1

    def load(self) -> LoadedHistory:
        """Replay `history.jsonl` (a torn last line is skipped and reported in `notices`)."""
        loaded = load_history(self.dir)
        self._last_seq = loaded.last_seq
        if self.pending_notice:
            loaded = msgspec.structs.replace(loaded, notices=[self.pending_notice, *loaded.notices])
            self.pending_notice = None
        return loaded

    def append_messages(self, messages: Sequence[Message], turn: int) -> int:
        """Checkpoint: append messages and fsync, then update `meta.json`; returns the last seq.

        Once this returns, the messages survive a crash or power loss.
        """
        if not messages:
            return self._next_seq() - 1
        first = self._next_seq()
        now = self._clock()
        records = [
            MessageRecord(seq=first + i, ts=now, message=message) for i, message in enumerate(messages)
        ]
        self._history.append(records, sync=True)
        self._last_seq = records[-1].seq
        self._refresh_info(
            msgspec.structs.replace(self._info, updated_at=now, turns=max(self._info.turns, turn))
        )
        return self._last_seq

    def append_compaction(
        self, *, summary: str, messages: Sequence[Message], artifact_path: str | None = None
    ) -> CompactionRecord:
        """Checkpoint a compaction: `messages` replace everything appended so far."""
        seq = self._next_seq()
        now = self._clock()
        record = CompactionRecord(
            seq=seq,
            ts=now,
            replaced_through_seq=seq - 1,
            summary=summary,
            messages=builtins.list(messages),
            artifact_path=artifact_path,
        )
        self._history.append([record], sync=True)
        self._last_seq = seq
        self._refresh_info(msgspec.structs.replace(self._info, updated_at=now))
        return record

    def compactions(self) -> builtins.list[CompactionEntry]:
        """Every compaction of the history, oldest first, with its artifact's figures when readable."""
        entries = []
        for record in history_log(self.history_path).load().records:
            if not isinstance(record, CompactionRecord):
                continue
            entry = CompactionEntry(
                ts=record.ts, messages_after=len(record.messages), artifact_path=record.artifact_path
            )
            if record.artifact_path is not None:
                try:
                    header = read_header(self.dir / record.artifact_path)
                except StoreError as err:
                    logger.warning("session %s: %s", self.id, err.user_text())
                else:
                    entry = msgspec.structs.replace(
                        entry,
                        trigger=header.trigger,
                        tokens_before=header.tokens_before,
                        tokens_after=header.tokens_after,
                        messages_before=header.message_count,
                    )
            entries.append(entry)
        return entries

    def append_event(self, event: Event) -> None:
        """Append one event to `events.jsonl` (flushed, not fsynced: events are a record, not state)."""
        self._events.append([event], sync=False)

    def update_info(
        self,
        *,
        model: str | None = None,
        provider: str | None = None,
        pending_intents: int | None = None,
    ) -> SessionInfo:
        """Rewrite `meta.json` with the given fields changed; raises `StoreError`."""
        info = msgspec.structs.replace(
            self._info,
            model=self._info.model if model is None else model,
            provider=self._info.provider if provider is None else provider,
            pending_intents=(self._info.pending_intents if pending_intents is None else pending_intents),
        )
        write_info(self.dir / META_FILE, info)
        self._info = info
        return info

    def claim(self) -> None:
        """Take the writer locks of the history and the event log now, so that a session another vtcode
        process still writes is refused before anything is done in it; raises `StoreError` (and holds
        nothing) when another process has them."""
        try:
            self._history.claim()
            self._events.claim()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release the session's files; the handle may be used again (it reopens them)."""
        self._history.close()
        self._events.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _next_seq(self) -> int:
        if self._last_seq is None:
            self.load()
        assert self._last_seq is not None
        return self._last_seq + 1

    def _refresh_info(self, info: SessionInfo) -> None:
        self._info = info
        try:
            write_info(self.dir / META_FILE, info)
        except StoreError as err:
            # The history checkpoint is already durable and is the source of truth; failing here
            # would invite a retry that duplicates it. meta.json catches up at the next checkpoint.
            logger.warning("session %s: meta.json not updated: %s", self.id, err.user_text())


class SessionStore:
    """All sessions under `<home>/sessions/`."""

    def __init__(self, home: Path, clock: Clock, new_id: Callable[[], str]) -> None:
        self.home = home
        self._clock = clock
        self._new_id = new_id

    @property
    def sessions_dir(self) -> Path:
        """`<home>/sessions`."""
        return self.home / SESSIONS_DIR

    def create(
        self,
        workspace: Path,
        title: str,
        *,
        model: str = "",
        provider: str = "",
        session_id: str | None = None,
    ) -> SessionHandle:
        """Create a session for `workspace`; `title` is the first prompt (its first line is kept).

        `session_id` is the id announced before the session had anything to store; by default a new one.
        """
        session_id = session_id or self._new_id()
        if not _ID_RE.fullmatch(session_id):
            raise ValueError(f"session id generator returned an unusable id: {session_id!r}")
        now = self._clock()
        info = SessionInfo(
            id=session_id,
            workspace=str(workspace.resolve()),
            created_at=now,
            updated_at=now,
            title=make_title(title),
            model=model,
            provider=provider,
        )
        directory = self.sessions_dir / session_id
        try:
            self.sessions_dir.mkdir(parents=True, exist_ok=True)
            directory.mkdir()
        except FileExistsError as err:
            raise StoreError(
                f"session directory {directory} already exists",
                hint="the id generator repeated an id; retry",
            ) from err
        except OSError as err:
            raise store_error(err, "create", directory) from err
        try:
            write_info(directory / META_FILE, info)
            fsync_dir(self.sessions_dir)
        except OSError as err:
            _remove_empty_session(directory)
            raise store_error(err, "create", directory) from err
        except BaseException:
            # Whatever failed, no half-created session may be left for `sessions list` to trip on.
            _remove_empty_session(directory)
            raise
        return SessionHandle(directory, info, self._clock, last_seq=0)

    def open(self, session_id: str) -> SessionHandle:
        """Open a session by its id or a unique prefix of it; raises `StoreError` otherwise."""
        resolved = self.resolve_id(session_id)
        directory = self.sessions_dir / resolved
        info, rebuilt = session_info(directory)
        handle = SessionHandle(directory, info, self._clock)
        handle.pending_notice = rebuilt
        return handle

    def resolve_id(self, session_id: str) -> str:
        """The full id of the one session whose id is `session_id` or starts with it."""
        ids = self._ids()
        if session_id in ids:
            return session_id
        matches = sorted(i for i in ids if session_id and i.startswith(session_id))
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise UnknownSessionError(
                f"no stored session has the id {session_id!r}",
                hint="run `vtcode sessions list` to see the stored sessions",
            )
        shown = ", ".join(matches[:5]) + (", ..." if len(matches) > 5 else "")
        raise UnknownSessionError(
            f"{session_id!r} is the start of {len(matches)} session ids: {shown}",
            hint="give more characters of the id; `vtcode sessions list` shows them",
        )

    def in_workspace(self, workspace: Path) -> builtins.list[SessionInfo]:
        """Sessions run in `workspace` (compared by real path), most recently updated first."""
        real = str(workspace.resolve())
        return [info for info in self.list() if info.workspace == real]

    def is_running(self, session_id: str) -> bool:
        """Whether a vtcode process has the session open for writing (it holds its history's lock)."""
        path = self.sessions_dir / session_id / HISTORY_FILE
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)
        return False

    def latest_for_workspace(self, workspace: Path) -> str | None:
        """The id of the most recently updated session run in `workspace` (compared by real path)."""
        sessions = self.in_workspace(workspace)
        return sessions[0].id if sessions else None

    def list(self) -> builtins.list[SessionInfo]:
        """Every readable session, most recently updated first; unreadable ones are skipped."""
        listing = self.scan()
        for problem in listing.skipped:
            logger.debug("skipping a session: %s", problem)
        return listing.sessions

    def scan(self) -> SessionListing:
        """Every readable session, most recently updated first, and why each unreadable one was skipped."""
        infos: builtins.list[SessionInfo] = []
        skipped: builtins.list[str] = []
        rebuilt: builtins.list[str] = []
        for session_id in sorted(self._ids()):
            try:
                info, note = session_info(self.sessions_dir / session_id)
                infos.append(info)
                rebuilt.extend([note] if note else [])
            except StoreError as err:
                hint = f" ({err.hint})" if err.hint else ""
                skipped.append(f"session {session_id} is skipped: {err.message}{hint}")
        infos.sort(key=lambda i: (i.updated_at, i.created_at, i.id), reverse=True)
        return SessionListing(infos, skipped, rebuilt)

    def status(self, session_id: str) -> SessionStatus:
        """How the session's last turn ended (see `last_turn_status`)."""
        return last_turn_status(self.sessions_dir / session_id / EVENTS_FILE)

    def _ids(self) -> set[str]:
        """Names of session directories with a `meta.json` or an event log (none after a crash mid-create)."""
        try:
            entries = builtins.list(self.sessions_dir.iterdir())
        except FileNotFoundError:
            return set()
        except OSError as err:
            raise store_error(err, "list", self.sessions_dir) from err
        return {
            entry.name
            for entry in entries
            if _ID_RE.fullmatch(entry.name)
            and ((entry / META_FILE).is_file() or (entry / EVENTS_FILE).is_file())
        }


def _remove_empty_session(directory: Path) -> None:
    try:
        directory.rmdir()
    except OSError:
        logger.warning("could not remove the unfinished session directory %s", directory)
