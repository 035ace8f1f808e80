"""`vtcode checkpoints gc`: drop the checkpoints of idle sessions, prune the snapshot repositories."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from vtcode.exec.shadow_git import SNAPSHOTS_DIR, ShadowGit, ShadowGitError, folder_bytes, project_id
from vtcode.store.checkpoints import CHECKPOINTS_DIR, CheckpointStore
from vtcode.store.session import SessionStore

_DAY = 86400.0


@dataclass(frozen=True)
class GcReport:
    """What gc removed and the disk it gave back."""

    sessions_dropped: int
    bytes_before: int
    bytes_after: int


def collect(
    home: Path,
    env: Mapping[str, str],
    *,
    keep_days: int,
    clock: Callable[[], float],
    quota_bytes: int | None = None,
    keep_session: str | None = None,
    keep_workspace: Path | None = None,
) -> GcReport:
    """Drop checkpoints of sessions idle over `keep_days` (or deleted), prune unreachable snapshots;
    then, while over `quota_bytes`, the checkpoints of the least recently used sessions too (never
    `keep_session`'s)."""
    before = _disk(home)
    cutoff = clock() - keep_days * _DAY
    dropped = _prune(home, env, clock, cutoff=cutoff, keep=keep_session, keep_workspace=keep_workspace)
    oldest_first = 1
    while quota_bytes is not None and _disk(home) > quota_bytes:
        removed = _prune(
            home,
            env,
            clock,
            cutoff=None,
            keep=keep_session,
            keep_workspace=keep_workspace,
            oldest=oldest_first,
        )
        if not removed:
            break
        dropped += removed
        oldest_first *= 2
    return GcReport(dropped, before, _disk(home))


def _prune(
    home: Path,
    env: Mapping[str, str],
    clock: Callable[[], float],
    *,
    cutoff: float | None,
    keep: str | None,
    keep_workspace: Path | None = None,
    oldest: int = 0,
) -> int:
    """Drop idle (before `cutoff`) or the `oldest` sessions' checkpoints, then gc; how many were dropped."""
    sessions = SessionStore(home, clock, lambda: "unused")
    infos = {info.id: info for info in sessions.scan().sessions}
    root = home / CHECKPOINTS_DIR
    entries = sorted(root.iterdir()) if root.is_dir() else []
    doomed = {
        e.name
        for e in entries
        if e.name != keep
        and (e.name not in infos or (cutoff is not None and infos[e.name].updated_at < cutoff))
    }
    if oldest:
        ranked = sorted(
            (infos[e.name].updated_at, e.name)
            for e in entries
            if e.name in infos and e.name != keep and not sessions.is_running(e.name)
        )
        doomed.update(name for _, name in ranked[:oldest])
    dropped = 0
    live: dict[str, tuple[Path, list[str]]] = {}
    for entry in entries:
        if entry.name in doomed:
            shutil.rmtree(entry, ignore_errors=True)
            dropped += 1
            continue
        info = infos.get(entry.name)
        if info is None and keep_workspace is None:
            continue
        # The session asking (its metadata may not be stored yet) keeps its workspace's snapshots.
        workspace = Path(info.workspace) if info is not None else keep_workspace or Path()
        trees = live.setdefault(project_id(workspace), (workspace, []))[1]
        trees.extend(CheckpointStore(home, entry.name).trees())
    projects = home / SNAPSHOTS_DIR
    for project in sorted(projects.iterdir()) if projects.is_dir() else []:
        if project.name not in live:
            shutil.rmtree(project, ignore_errors=True)
            continue
        workspace, trees = live[project.name]
        shadow = ShadowGit(home, workspace, env, index_name="gc")
        if not shadow.available:
            continue
        try:
            shadow.keep(trees)
            shadow.gc()
        except ShadowGitError:
            continue
    return dropped


def _disk(home: Path) -> int:
    return folder_bytes(home / CHECKPOINTS_DIR) + folder_bytes(home / SNAPSHOTS_DIR)
