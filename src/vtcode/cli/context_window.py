"""The context window of the model a session in this workspace would use: the skill catalog's budget
follows it, so the commands that show the catalog ask it the same way."""

from __future__ import annotations

from collections.abc import Mapping

from vtcode.config.schema import Settings
from vtcode.protocol.errors import VtcodeError
from vtcode.runtime.providers import choose_provider, model_info


def chosen_context_window(settings: Settings, env: Mapping[str, str]) -> int:
    """The chosen model's context window; the catalog's default when no provider is configured."""
    try:
        return model_info(settings, choose_provider(settings, env).model).context_window
    except VtcodeError:  # no provider configured: what is listed or shown needs none
        return model_info(settings, "").context_window
