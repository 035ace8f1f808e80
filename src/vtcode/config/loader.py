"""Load the layered configuration of SPEC section 3 into one validated `Settings`.

Layers, lowest to highest:

1. built-in defaults (the `Settings` field defaults);
2. `$VTCODE_HOME/vtcode.toml` (user);
3. `<workspace>/.vtcode/vtcode.toml`, then `<workspace>/vtcode.toml` (both are read when both exist),
   restricted by `workspace_trust` because they come with the repository rather than from the user;
4. environment variables (`VTCODE_PROVIDER`, `VTCODE_MODEL`, `VTCODE_PROFILE`, `VTCODE_APPROVAL`);
5. `-c KEY=VALUE` overrides, in the order given (a later one wins);
6. dedicated command-line flags (`--model`, `--approval`, ...).

`-c` sits above the environment, as in Codex where it is a command-line layer, but below dedicated
flags: `--model X` names one setting on purpose and is more specific than a generic `-c`, so
`vtcode -c agent.model=a --model b` runs `b`.

Each layer is validated on its own before merging, so an error names the file, variable or option that
holds the bad value; cross-key rules (a provider name defined in another layer's `[providers]`) are
checked once on the merged result, naming the layer that set the key.

The workspace files come with the repository, so they may tighten policy but never loosen it or choose
where requests and API keys go; `workspace_trust` checks each one against the layers below it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import msgspec

from vtcode.config.environment import debug_enabled, environment_layers, resolve_home
from vtcode.config.hook_layers import HookLayer, add_hook_groups, take_hook_groups
from vtcode.config.layers import Layer, config_files, deep_merge, file_layer, flags_layer, leaf_keys
from vtcode.config.overrides import parse_override
from vtcode.config.schema import Settings
from vtcode.config.validation import KeyPath, to_settings, validate_layer, validate_provider
from vtcode.config.workspace_trust import (
    check_provider_switch,
    drop_untrusted_tables,
    restrict_workspace_layer,
)

_NO_FLAGS: Mapping[str, object] = MappingProxyType({})


class LoadedConfig(msgspec.Struct, frozen=True):
    """The effective settings and where they came from."""

    settings: Settings
    home: Path
    # Config files actually read, lowest layer first.
    sources: tuple[str, ...]
    # Deprecated keys and the like: shown once by the front end, never an error.
    notices: tuple[str, ...] = ()
    # Keys that were ignored (a workspace file trying to loosen approval), one message each, naming
    # the file and key; every front end shows them to the user.
    warnings: tuple[str, ...] = ()
    # The `[[hooks.EVENT]]` groups of each layer that has some, lowest first: hooks add up across
    # files (never replace each other) and whether they need trust depends on the file.
    hook_layers: tuple[HookLayer, ...] = ()


def load_settings(
    *,
    workspace: Path,
    env: Mapping[str, str],
    overrides: Sequence[str] = (),
    flags: Mapping[str, object] = _NO_FLAGS,
) -> LoadedConfig:
    """Read, validate and merge every layer; any problem raises ConfigError (exit 2)."""
    debug_enabled(env)  # a wrong value is a config error like any other, not silently off
    home = resolve_home(env)
    files = config_files(home=home, workspace=workspace)
    layers = [
        *(file_layer(file) for file in files),
        *environment_layers(env),
        *(parse_override(text) for text in overrides),
        flags_layer(flags),
    ]
    merged: dict[str, Any] = {}
    origins: dict[KeyPath, str] = {}
    provider_layer: Layer | None = None
    # agent.provider as the user's own file left it, before any workspace file had a say.
    trusted_provider: str | None = None
    in_workspace = False
    warnings: list[str] = []
    hook_layers: list[HookLayer] = []
    for layer in layers:
        table = validate_layer(layer.table, source=layer.source, value_hint=layer.value_hint)
        table, hooks = take_hook_groups(table, layer)
        if hooks is not None:
            hook_layers.append(hooks)
            warnings.extend(hooks.warnings)
        if layer.workspace:
            table, dropped = drop_untrusted_tables(table, source=layer.source)
            warnings.extend(dropped)
            if not in_workspace:
                in_workspace = True
                trusted_provider = merged.get("agent", {}).get("provider")
            restricted = restrict_workspace_layer(
                table, source=layer.source, below=merged, origins=origins, workspace=workspace
            )
            table = restricted.table
            warnings.extend(restricted.warnings)
        if "provider" in table.get("agent", {}):
            provider_layer = layer
        merged = add_hook_groups(merged, deep_merge(merged, table), hooks)
        origins.update((key, layer.source) for key in leaf_keys(table))
    settings = to_settings(merged)
    if provider_layer is not None:
        validate_provider(settings, source=provider_layer.source)
        if provider_layer.workspace:
            check_provider_switch(
                settings, source=provider_layer.source, below_provider=trusted_provider, origins=origins
            )
    return LoadedConfig(
        settings=settings,
        home=home,
        sources=tuple(str(file.path) for file in files),
        notices=_deprecations(origins),
        warnings=tuple(warnings),
        hook_layers=tuple(hook_layers),
    )


_DEPRECATED: Mapping[KeyPath, str] = MappingProxyType(
    {
        ("context", "dynamic", "retained_user_messages"): (
            "context.dynamic.retained_user_messages is deprecated and ignored: every user message is now "
            "kept through compaction within context.dynamic.retained_user_tokens (default 4000)"
        )
    }
)


def _deprecations(origins: Mapping[KeyPath, str]) -> tuple[str, ...]:
    """One notice per deprecated key a layer set, naming the layer."""
    return tuple(f"{origins[key]}: {text}" for key, text in _DEPRECATED.items() if key in origins)
