"""Whether a session has skills at all, decided with a few `stat`s before any skills code is imported."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from vtcode.instructions.definition_folders import any_present, definition_roots
from vtcode.runtime.workspace_scope import WorkspaceScope

if TYPE_CHECKING:
    from vtcode.runtime.skills import SessionSkills


def session_skills(
    scope: WorkspaceScope, context_window: int, notice: Callable[[str], None]
) -> SessionSkills | None:
    """The skills and commands of a session in `scope`; None when disabled or when no skill or command
    folder exists (then nothing more is read or imported: `vtcode exec` start-up time)."""
    settings = scope.settings
    if not settings.skills.enabled:
        return None
    roots = definition_roots(scope.workspace, scope.home, scope.user_home, settings.skills.paths)
    if not any_present(roots):
        return None
    from vtcode.runtime.skills import load_session_skills

    # Its project folders are resolved already.
    return load_session_skills(scope, context_window, notice, roots=roots)
