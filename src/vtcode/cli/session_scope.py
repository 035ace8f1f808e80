"""The scope of a session in a workspace as the commands that show it (`vtcode prompt`, `instructions`,
`skills list`) see it, and the context window of the model it would use: the skill catalog's budget
follows that window, so they ask for it the way a session does."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from vtcode.config.loader import LoadedConfig
from vtcode.protocol.errors import VtcodeError
from vtcode.runtime.providers import choose_provider, model_info
from vtcode.runtime.workspace_scope import WorkspaceScope, user_home


def workspace_scope(loaded: LoadedConfig, workspace: Path, env: Mapping[str, str]) -> WorkspaceScope:
    """The scope a session in `workspace` with these settings and environment would have."""
    return WorkspaceScope(
        settings=loaded.settings, workspace=workspace, home=loaded.home, user_home=user_home(env)
    )


def chosen_context_window(loaded: LoadedConfig, env: Mapping[str, str]) -> int:
    """The chosen model's context window; the catalog's default when no provider is configured."""
    settings = loaded.settings
    try:
        return model_info(settings, choose_provider(settings, env).model).context_window
    except VtcodeError:  # no provider configured: what is listed or shown needs none
        return model_info(settings, "").context_window
