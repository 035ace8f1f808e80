"""`vtcode checkpoints gc`: drop the checkpoints of idle sessions, prune the snapshot repositories."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from vtcode.exec.shadow_git import SNAPSHOTS_DIR, ShadowGit, ShadowGitError, project_id
from vtcode.store.checkpoints import CHECKPOINTS_DIR, CheckpointStore
from vtcode.store.session import SessionStore

_DAY = 86400.0


@dataclass(frozen=True)
class GcReport:
    """What gc removed and the disk it gave back."""

    sessions_dropped: int
    bytes_before: int
    bytes_after: int


def collect(home: Path, env: Mapping[str, str], *, keep_days: int, clock: Callable[[], float]) -> GcReport:
    """Drop checkpoints of sessions idle over `keep_days` (or deleted), then prune unreachable snapshots."""
    before = _disk(home)
    sessions = SessionStore(home, clock, lambda: "unused")
    infos = {info.id: info for info in sessions.scan().sessions}
    cutoff = clock() - keep_days * _DAY
    dropped = 0
    root = home / CHECKPOINTS_DIR
    live: dict[str, tuple[Path, list[str]]] = {}
    for entry in sorted(root.iterdir()) if root.is_dir() else []:
        info = infos.get(entry.name)
        if info is None or info.updated_at < cutoff:
            shutil.rmtree(entry, ignore_errors=True)
            dropped += 1
            continue
        workspace = Path(info.workspace)
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
    return GcReport(dropped, before, _disk(home))


def _disk(home: Path) -> int:
    total = 0
    for name in (CHECKPOINTS_DIR, SNAPSHOTS_DIR):
        for folder, _dirs, files in os.walk(home / name):
            for file in files:
                try:
                    total += os.lstat(os.path.join(folder, file)).st_blocks * 512
                except OSError:
                    continue
    return total
