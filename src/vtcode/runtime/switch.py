"""Switching the model or the prompt profile of a session, effective from its next turn.

The static system prompt is recomposed (so is its cache key): the provider's prompt cache misses once,
and the user is told so. Whether the history is compacted on a model switch is
`[agent.harness] compact_on_model_switch`; the session decides that, this module only swaps the parts.
"""

from __future__ import annotations

import msgspec

from vtcode import prompts
from vtcode.protocol.errors import ConfigError
from vtcode.runtime.providers import model_info
from vtcode.runtime.system_prompt import SystemPromptBuilder
from vtcode.runtime.wiring import Wiring


class Switch(msgspec.Struct, frozen=True):
    """A requested change; None keeps the current value."""

    model: str | None = None
    profile: str | None = None


def check(switch: Switch) -> Switch:
    """`switch` with its names normalized; raises `ConfigError` for an unknown profile or a model name
    with spaces (words typed after the name, which the catalog's prefix match would otherwise take)."""
    profile = prompts.parse_profile(switch.profile) if switch.profile is not None else None
    model = switch.model.strip() if switch.model is not None else None
    if model and any(c.isspace() for c in model):
        raise ConfigError(
            f"a model name has no spaces: {model!r}", hint="name one model, as in `/model gpt-4.1`"
        )
    return Switch(model=model or None, profile=profile)


def apply(wiring: Wiring, switch: Switch) -> list[str]:
    """Swap the parts of `wiring` (between turns); returns what the user should be told."""
    told: list[str] = []
    runner = wiring.runner
    settings = wiring.options.settings
    model_changed = switch.model is not None and switch.model != wiring.model
    if model_changed and switch.model is not None:
        info = model_info(settings, switch.model)
        wiring.model = switch.model
        wiring.info = info
        runner.model = switch.model
        runner.context_window = info.context_window
        # The thresholds are a share of the window: a smaller model must compact sooner.
        wiring.compactor.use_model(switch.model, info.context_window)
        runner.images = info.images
        runner.max_output_tokens = (
            settings.agent.max_output_tokens or settings.model_settings(switch.model).max_output_tokens
        )
        # The provider's count for the previous model says nothing about the next one.
        wiring.state.last_usage = None
        told.append(f"model: {switch.model} from the next turn on ({info.context_window:,}-token window)")
        if not info.known:
            told.append(f"model {switch.model!r} is not in the catalog; assuming the default window")
    old = wiring.prompt
    profile = switch.profile or old.profile
    if model_changed or profile != old.profile:
        prompt = SystemPromptBuilder(
            old.scope,
            tools=runner.tools,
            profile=profile,
            on_diagnostics=old.on_diagnostics,
            catalog=old.catalog,
        )
        prompt.note_touched(old.active_paths)
        wiring.prompt = prompt
        runner.system = prompt.build
        runner.cache_key = prompt.cache_key
        wiring.dispatcher.on_touched = prompt.note_touched
        if profile != old.profile:
            told.append(f"prompt profile: {profile} from the next turn on")
        told.append("the system prompt was recomposed: the provider's prompt cache starts over once")
    return told
