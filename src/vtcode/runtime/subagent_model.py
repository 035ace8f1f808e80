"""The model a `task` call asks a subagent to use: a known one, the type's own, or an error to the model."""

from __future__ import annotations

from vtcode.config.schema import Settings
from vtcode.core.agents.builtins import INHERIT_MODELS
from vtcode.runtime.providers import model_info
from vtcode.tools.base import ToolOutcome


def chosen_model(model: str | None, settings: Settings) -> str | ToolOutcome | None:
    """The model a `task` call asks for (None: the type's own); an unknown one is an error result."""
    if model is None or not model.strip() or model.strip() in INHERIT_MODELS:
        # Claude Code's aliases (`haiku`, `sonnet`, ...) name another vendor's models: keep the default.
        return None
    name = model.strip()
    if name in settings.models or model_info(settings, name).known:
        return name
    return ToolOutcome(
        content=f"unknown model {name!r}: name one from the model catalog or a [models] table, or leave "
        "`model` out to use the subagent's own",
        is_error=True,
    )
