"""Where a session works from: its workspace, the settings in effect, vtcode's home and the user's home.

These four decide which prompt layers, instruction files, skills and commands apply. The prompt builder,
the skills and the commands that show them (`vtcode prompt`, `instructions`, `skills list`) read them
from this one record, so a session and what the commands show of it cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import msgspec

from vtcode.config.schema import Settings


class WorkspaceScope(msgspec.Struct, frozen=True, kw_only=True):
    """A session's workspace and settings, vtcode's home folder, and the user's home (None: unknown)."""

    settings: Settings
    workspace: Path
    home: Path
    user_home: Path | None = None


def user_home(env: Mapping[str, str]) -> Path | None:
    """The user's home folder from the environment the front end was given."""
    raw = env.get("HOME") or env.get("USERPROFILE")
    return Path(raw) if raw else None
