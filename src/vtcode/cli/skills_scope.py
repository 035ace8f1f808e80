"""The skills scope of a session in a workspace, as the commands that show skills (`vtcode skills list`,
`vtcode prompt`, `vtcode instructions`) see it: the catalog's budget follows the chosen model's context
window, so they ask for it the way a session does."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from vtcode.config.loader import LoadedConfig
from vtcode.protocol.errors import VtcodeError
from vtcode.runtime.providers import choose_provider, model_info
from vtcode.runtime.skills_start import SkillsScope
from vtcode.runtime.system_prompt import user_home


def workspace_skills_scope(loaded: LoadedConfig, workspace: Path, env: Mapping[str, str]) -> SkillsScope:
    """The scope a session in `workspace` with these settings and environment would have."""
    settings = loaded.settings
    try:
        context_window = model_info(settings, choose_provider(settings, env).model).context_window
    except VtcodeError:  # no provider configured: what is listed or shown needs none
        context_window = model_info(settings, "").context_window
    return SkillsScope(
        settings=settings,
        workspace=workspace,
        home=loaded.home,
        user_home=user_home(env),
        context_window=context_window,
    )
