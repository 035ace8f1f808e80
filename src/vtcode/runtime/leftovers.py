"""Command groups a killed vtcode left running: record ours in the session, end those of dead runs."""

from __future__ import annotations

from pathlib import Path

from vtcode.exec.group_record import GROUP_RECORD_FILE, describe, sweep_recorded_groups
from vtcode.exec.manager import SessionManager
from vtcode.store.session import SessionStore


def end_leftover_groups(store: SessionStore, workspace: Path, session_id: str) -> str | None:
    """End what dead vtcode runs of this session or workspace left running; the notice, None if nothing.

    Call it before `record_groups`, which takes over this session's record file.
    """
    real = str(workspace.resolve())
    ids = {info.id for info in store.list() if info.workspace == real} | {session_id}
    ended = sweep_recorded_groups(store.sessions_dir / i / GROUP_RECORD_FILE for i in sorted(ids))
    return describe(ended) if ended else None


def record_groups(sessions: SessionManager | None, store: SessionStore, session_id: str) -> None:
    """Keep this run's live command groups in its session directory."""
    if sessions is not None:
        sessions.record_groups_in(store.sessions_dir / session_id / GROUP_RECORD_FILE)
