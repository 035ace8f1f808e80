"""Layered configuration (SPEC section 3): schema, files, environment, `-c` overrides and flags."""

from vtcode.config.environment import ProviderEnv, os_environ, provider_env, resolve_home
from vtcode.config.loader import LoadedConfig, load_settings
from vtcode.config.overrides import parse_override
from vtcode.config.schema import (
    BUILTIN_PROVIDERS,
    AgentSettings,
    ApprovalMode,
    ApprovalSettings,
    ContextSettings,
    DynamicContextSettings,
    HarnessSettings,
    InstructionSourceSettings,
    ModelSettings,
    NetworkSettings,
    ProviderSettings,
    PtySettings,
    Settings,
    SystemPromptMode,
    TimeoutSettings,
)
from vtcode.config.serialize import settings_to_toml

__all__ = [
    "BUILTIN_PROVIDERS",
    "AgentSettings",
    "ApprovalMode",
    "ApprovalSettings",
    "ContextSettings",
    "DynamicContextSettings",
    "HarnessSettings",
    "InstructionSourceSettings",
    "LoadedConfig",
    "ModelSettings",
    "NetworkSettings",
    "ProviderEnv",
    "ProviderSettings",
    "PtySettings",
    "Settings",
    "SystemPromptMode",
    "TimeoutSettings",
    "load_settings",
    "os_environ",
    "parse_override",
    "provider_env",
    "resolve_home",
    "settings_to_toml",
]
