"""Layered configuration (SPEC section 3): schema, files, environment, `-c` overrides and flags.

The names below are loaded on first access (PEP 562), so importing one submodule, such as
`vtcode.config.environment` for the logging switch, does not import the loader, schema and serializer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vtcode.config.environment import os_environ, resolve_home
    from vtcode.config.loader import LoadedConfig, load_settings
    from vtcode.config.overrides import parse_override
    from vtcode.config.schema import (
        BUILTIN_PROVIDERS,
        AgentSettings,
        ApprovalSettings,
        ContextSettings,
        DynamicContextSettings,
        HarnessSettings,
        InstructionSourceSettings,
        ModelSettings,
        NetworkSettings,
        PtySettings,
        Settings,
        SystemPromptMode,
        TimeoutSettings,
    )
    from vtcode.config.serialize import settings_to_toml
    from vtcode.core.provider_settings import ProviderSettings

_HOMES = {
    "os_environ": "environment",
    "resolve_home": "environment",
    "LoadedConfig": "loader",
    "load_settings": "loader",
    "parse_override": "overrides",
    "settings_to_toml": "serialize",
}


def __getattr__(name: str) -> Any:
    """Import the submodule that defines `name` when it is first used."""
    # Every exported name not homed elsewhere comes from the schema.
    home = _HOMES.get(name) or ("schema" if name in __all__ else None)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "BUILTIN_PROVIDERS",
    "AgentSettings",
    "ApprovalSettings",
    "ContextSettings",
    "DynamicContextSettings",
    "HarnessSettings",
    "InstructionSourceSettings",
    "LoadedConfig",
    "ModelSettings",
    "NetworkSettings",
    "ProviderSettings",
    "PtySettings",
    "Settings",
    "SystemPromptMode",
    "TimeoutSettings",
    "load_settings",
    "os_environ",
    "parse_override",
    "resolve_home",
    "settings_to_toml",
]
