"""Whether a session has skills at all, decided with a few `stat`s before any skills code is imported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from vtcode.config.schema import Settings
from vtcode.instructions.definition_folders import any_present, definition_roots

if TYPE_CHECKING:
    from vtcode.runtime.skills import SessionSkills


class SkillsScope(msgspec.Struct, frozen=True, kw_only=True):
    """Where a session's skills and commands come from, and what sizes their catalog: the workspace and
    its settings, vtcode's home, the user's home (None: none), the model's context window."""

    settings: Settings
    workspace: Path
    home: Path
    user_home: Path | None
    context_window: int


def session_skills(scope: SkillsScope, notice: Callable[[str], None]) -> SessionSkills | None:
    """The skills and commands of a session in `scope`; None when disabled or when no skill or command
    folder exists (then nothing more is read or imported: `vtcode exec` start-up time)."""
    settings = scope.settings
    if not settings.skills.enabled:
        return None
    roots = definition_roots(scope.workspace, scope.home, scope.user_home, settings.skills.paths)
    if not any_present(roots):
        return None
    from vtcode.runtime.skills import load_session_skills

    return load_session_skills(scope, notice, roots=roots)  # its project folders are resolved already
