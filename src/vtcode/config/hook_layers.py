"""The `[[hooks.EVENT]]` groups of each config layer, kept with the layer's name.

Merging replaces lists, but hooks of the user file and of the workspace files add up (the merged
`Settings.hooks` holds them all), and a workspace file's hooks need the user's trust while the user's
own do not: so each layer's groups are also kept apart with the layer's name. `hooks.import` chooses
which peers' files to read; only the user may set it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from vtcode.config.layers import Layer
from vtcode.config.schema import HookGroupSettings
from vtcode.core.hooks.model import HOOK_EVENTS, HookEvent

_USER_ONLY = "$VTCODE_HOME/vtcode.toml"


class HookLayer(msgspec.Struct, frozen=True):
    """The hook groups of one layer, by event, and whether that layer is a workspace file."""

    source: str
    workspace: bool
    groups: Mapping[HookEvent, tuple[HookGroupSettings, ...]]
    warnings: tuple[str, ...] = ()


def take_hook_groups(table: dict[str, Any], layer: Layer) -> tuple[dict[str, Any], HookLayer | None]:
    """`table` as it may be merged (validated already), and its hook groups as a `HookLayer`."""
    hooks = table.get("hooks")
    if not isinstance(hooks, dict):
        return table, None
    groups: dict[HookEvent, tuple[HookGroupSettings, ...]] = {}
    for event in HOOK_EVENTS:
        if event in hooks:
            groups[event] = msgspec.convert(hooks[event], tuple[HookGroupSettings, ...])
    kept = dict(hooks)
    warnings: tuple[str, ...] = ()
    if layer.workspace and "import" in kept:
        del kept["import"]
        warnings = (
            f"{layer.source}:hooks.import: ignored: a workspace config cannot import other tools' hook "
            f"files; set it in {_USER_ONLY}",
        )
    rest = {key: value for key, value in table.items() if key != "hooks"}
    if kept:
        rest["hooks"] = kept
    if not groups and not warnings:
        return rest, None
    return rest, HookLayer(layer.source, layer.workspace, groups, warnings)


def add_hook_groups(
    below: Mapping[str, Any], merged: dict[str, Any], layer: HookLayer | None
) -> dict[str, Any]:
    """`merged` with this layer's hook groups added after those of the layers below (not replacing)."""
    if layer is None or not layer.groups:
        return merged
    lower: Mapping[str, Any] = below.get("hooks", {})
    hooks = dict(merged["hooks"])
    for event in layer.groups:
        hooks[event] = [*lower.get(event, ()), *hooks[event]]
    return {**merged, "hooks": hooks}
