"""Environment variables: the only module that touches `os.environ` (DESIGN section 1).

Everything else takes the environment as a `Mapping[str, str]` so tests pass a plain dict; the front
end calls `os_environ()` once and hands the result down. An empty variable counts as unset, as shells
make `VAR=` the usual way to switch one off for a single command.

`VTCODE_*` settings form a layer above the config files (each named by its variable in error
messages). Provider credentials and endpoints never become settings: they apply only once the provider
is known (`OPENAI_BASE_URL` only for an OpenAI-style endpoint), so provider selection reads them from
the environment mapping it is given.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from vtcode.config.layers import Layer, nest
from vtcode.protocol.errors import ConfigError

SETTINGS_VARIABLES: Mapping[str, tuple[str, ...]] = {
    "VTCODE_PROVIDER": ("agent", "provider"),
    "VTCODE_MODEL": ("agent", "model"),
    "VTCODE_PROFILE": ("agent", "system_prompt_mode"),
    "VTCODE_APPROVAL": ("agent", "approval"),
}
"""Variables that set a config key, in the order their layers apply."""


def os_environ() -> Mapping[str, str]:
    """The process environment, for the front end to pass to `load_settings`."""
    return os.environ


def resolve_home(env: Mapping[str, str]) -> Path:
    """`$VTCODE_HOME` (a leading `~` is the env's HOME), else `<HOME>/.vtcode`."""
    raw = env.get("VTCODE_HOME", "")
    if not raw:
        return _user_home(env) / ".vtcode"
    path = _user_home(env) / raw[2:] if raw == "~" or raw.startswith("~/") else Path(raw)
    if not path.is_absolute():
        raise ConfigError(
            f"VTCODE_HOME: got {json.dumps(raw)}, expected an absolute path or one starting with ~/"
        )
    return path


def resolve_user_home(env: Mapping[str, str]) -> Path:
    """The user's home directory from HOME (USERPROFILE on Windows); ConfigError when unusable."""
    return _user_home(env)


def _user_home(env: Mapping[str, str]) -> Path:
    """The user's home directory from HOME (USERPROFILE on Windows)."""
    raw = env.get("HOME") or env.get("USERPROFILE") or ""
    if not raw or not Path(raw).is_absolute():
        raise ConfigError(
            f"HOME: got {json.dumps(raw)}, expected the absolute path of the home directory",
            hint="set HOME, or VTCODE_HOME to the directory holding vtcode.toml",
        )
    return Path(raw)


def debug_enabled(env: Mapping[str, str]) -> bool:
    """`VTCODE_DEBUG`: 1/true/yes/on or 0/false/no/off, any case; unset or empty is off."""
    raw = env.get("VTCODE_DEBUG", "")
    value = raw.strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ConfigError(
        f"VTCODE_DEBUG: got {json.dumps(raw)}, expected one of 1, true, yes, on, 0, false, no, off"
    )


def sandbox_missing_features(env: Mapping[str, str]) -> frozenset[str]:
    """`VTCODE_SANDBOX_PRETEND_MISSING`: kernel features (landlock, userns) the sandbox treats as absent.

    For testing the fallbacks on a kernel that has everything; a name vtcode does not know is an error.
    """
    raw = env.get("VTCODE_SANDBOX_PRETEND_MISSING", "")
    names = frozenset(part.strip() for part in raw.split(",") if part.strip())
    unknown = sorted(names - {"landlock", "userns"})
    if unknown:
        raise ConfigError(
            f"VTCODE_SANDBOX_PRETEND_MISSING: got {json.dumps(raw)}, expected a comma-separated list of "
            "landlock, userns"
        )
    return names


def environment_layers(env: Mapping[str, str]) -> list[Layer]:
    """One layer per `VTCODE_*` settings variable that is set, so an error names the variable."""
    return [Layer(name, nest(path, env[name])) for name, path in SETTINGS_VARIABLES.items() if env.get(name)]
