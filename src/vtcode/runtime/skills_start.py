"""Whether a session has skills at all, decided with a few `stat`s before any skills code is imported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from vtcode.config.schema import Settings
from vtcode.instructions.definition_folders import any_present, definition_roots

if TYPE_CHECKING:
    from vtcode.runtime.skills import SessionSkills


def session_skills(
    settings: Settings,
    *,
    workspace: Path,
    home: Path,
    user_home: Path | None,
    context_window: int,
    notice: Callable[[str], None],
) -> SessionSkills | None:
    """The skills and commands of a session in `workspace`; None when disabled or when no skill or
    command folder exists (then nothing more is read or imported: `vtcode exec` start-up time)."""
    if not settings.skills.enabled:
        return None
    roots = definition_roots(workspace, home, user_home, settings.skills.paths)
    if not any_present(roots):
        return None
    from vtcode.runtime.skills import load_session_skills

    return load_session_skills(
        settings,
        workspace=workspace,
        home=home,
        user_home=user_home,
        context_window=context_window,
        notice=notice,
        roots=roots,  # its project folders are resolved already
    )
