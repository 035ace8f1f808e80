"""Settings back to TOML, for `vtcode config show` and for writing a starter file."""

from __future__ import annotations

from typing import Any

import msgspec
import tomli_w

from vtcode.config.schema import Settings


def settings_to_toml(settings: Settings) -> str:
    """Every key of `settings` as TOML that loads back to equal settings."""
    return tomli_w.dumps(_without_none(msgspec.to_builtins(settings)))


def _without_none(table: dict[str, Any]) -> dict[str, Any]:
    """Drop unset keys: TOML has no null, and every optional key defaults to None."""
    return {key: _clean(value) for key, value in table.items() if value is not None}


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return _without_none(value)
    if isinstance(value, list | tuple):
        # Arrays of tables (`[[hooks.PreToolUse]]`) hold tables with unset keys too.
        return [_clean(item) for item in value]
    return value
