"""Hook files in Claude Code's JSON shape: `.vtcode/hooks.json` and the peers' files vtcode imports
(Codex's `.codex/config.toml` holds the same shape as TOML tables).

`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "..."}]}]}}`.
Our own `.vtcode/hooks.json` is strict (an unknown event or a bad matcher is a config error naming the
file and key); an imported file may name events vtcode does not have, which are skipped with a warning.
Gemini CLI files use their own event names and millisecond timeouts, mapped here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from vtcode.config.validation import format_key
from vtcode.core.hooks.matching import matcher_error
from vtcode.core.hooks.model import GEMINI_EVENTS, HOOK_EVENTS, SNAKE_EVENTS, HookEvent, HookHandler
from vtcode.protocol.errors import ConfigError

Dialect = Literal["vtcode", "claude", "codex", "gemini"]


@dataclass(frozen=True)
class JsonGroup:
    """One `{matcher, hooks}` entry of a JSON hook file."""

    event: HookEvent
    matcher: str
    handlers: tuple[HookHandler, ...]


@dataclass(frozen=True)
class JsonHooks:
    """The groups of one JSON file and what was skipped in it."""

    groups: tuple[JsonGroup, ...] = ()
    warnings: tuple[str, ...] = ()
    # Claude Code's `"disableAllHooks": true`: no hook of its settings files runs.
    disable_all: bool = False


def read_hook_json(path: Path, dialect: Dialect) -> JsonHooks:
    """The hooks of a JSON file (absent file: none); bad input raises ConfigError naming file and key."""
    text = _read_text(path)
    if text is None:
        return JsonHooks()
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", 0)
        col = getattr(exc, "colno", 0)
        raise ConfigError(f"{path}: invalid JSON at line {line}, column {col}: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f'{path}: expected a JSON object with a "hooks" key')
    if dialect == "claude" and data.get("disableAllHooks") is True:
        return JsonHooks(disable_all=True)
    hooks = data.get("hooks")
    if hooks is None:
        return JsonHooks()
    return _read_events(hooks, path=path, dialect=dialect)


def read_hook_toml(path: Path, dialect: Dialect) -> JsonHooks:
    """The `[[hooks.EVENT]]` tables of a TOML file (Codex's `.codex/config.toml`); absent file: none."""
    import tomllib

    text = _read_text(path)
    if text is None:
        return JsonHooks()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    hooks = data.get("hooks")
    if hooks is None:
        return JsonHooks()
    return _read_events(hooks, path=path, dialect=dialect)


def _read_text(path: Path) -> str | None:
    """The file's text, None when it does not exist; unreadable or not UTF-8 is a ConfigError."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from None


def read_hook_mapping(hooks: object, *, path: Path, dialect: Dialect) -> JsonHooks:
    """The hooks of an already-parsed `hooks` mapping (a skill's frontmatter); errors name `path`."""
    return _read_events(hooks, path=path, dialect=dialect)


def _read_events(hooks: object, *, path: Path, dialect: Dialect) -> JsonHooks:
    if not isinstance(hooks, dict):
        raise ConfigError(f"{path}:hooks: expected an object of event names")
    groups: list[JsonGroup] = []
    warnings: list[str] = []
    for name, entries in hooks.items():
        event = _event(name, dialect)
        if event is None:
            if dialect == "vtcode":
                raise ConfigError(
                    f"{path}:hooks.{name}: unknown hook event, expected one of {', '.join(HOOK_EVENTS)}"
                )
            warnings.append(f"{path}:hooks.{name}: skipped: vtcode has no such hook event")
            continue
        if not isinstance(entries, list):
            raise ConfigError(f"{path}:{format_key(('hooks', name))}: expected a list of groups")
        for index, entry in enumerate(entries):
            key = ("hooks", name, f"[{index}]")
            groups.append(_group(event, entry, path=path, key=key, dialect=dialect, warnings=warnings))
    return JsonHooks(tuple(groups), tuple(warnings))


def _event(name: str, dialect: Dialect) -> HookEvent | None:
    if dialect == "gemini":
        return GEMINI_EVENTS.get(name)
    if name in HOOK_EVENTS:
        return next(e for e in HOOK_EVENTS if e == name)
    return SNAKE_EVENTS.get(name)


def _group(
    event: HookEvent,
    entry: object,
    *,
    path: Path,
    key: tuple[str, ...],
    dialect: Dialect,
    warnings: list[str],
) -> JsonGroup:
    if not isinstance(entry, dict):
        raise ConfigError(f'{path}:{format_key(key)}: expected an object with "matcher" and "hooks"')
    matcher = entry.get("matcher", "")
    if not isinstance(matcher, str):
        raise ConfigError(f"{path}:{format_key((*key, 'matcher'))}: expected a string")
    problem = matcher_error(matcher)
    if problem is not None:
        raise ConfigError(f"{path}:{format_key((*key, 'matcher'))}: {problem}")
    handlers: list[HookHandler] = []
    raw = entry.get("hooks", [])
    if not isinstance(raw, list):
        raise ConfigError(f"{path}:{format_key((*key, 'hooks'))}: expected a list of handlers")
    for index, item in enumerate(raw):
        where = (*key, "hooks", f"[{index}]")
        handler = _handler(item, path=path, key=where, dialect=dialect)
        if handler is None:
            warnings.append(f"{path}:{format_key(where)}: skipped: vtcode runs only command hooks")
        else:
            handlers.append(handler)
    return JsonGroup(event, matcher, tuple(handlers))


def _handler(item: object, *, path: Path, key: tuple[str, ...], dialect: Dialect) -> HookHandler | None:
    where = f"{path}:{format_key(key)}"
    if not isinstance(item, dict):
        raise ConfigError(f'{where}: expected an object with "command"')
    if item.get("type", "command") != "command":
        return None
    command = item.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ConfigError(f"{where}.command: expected a non-empty string")
    args = item.get("args")
    if args is not None and not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        raise ConfigError(f"{where}.args: expected a list of strings")
    timeout = _timeout(item, where=where, dialect=dialect)
    on_failure = item.get("on_failure", item.get("onFailure", "allow"))
    if on_failure not in ("allow", "block"):
        raise ConfigError(f'{where}.on_failure: got {on_failure!r}, expected "allow" or "block"')
    status = item.get("statusMessage", item.get("status_message"))
    condition = item.get("if")
    if condition is not None and not isinstance(condition, str):
        raise ConfigError(f'{where}.if: expected a permission rule such as "Bash(git *)"')
    return HookHandler(
        command=command,
        args=tuple(args) if args is not None else None,
        timeout=timeout,
        on_failure=on_failure,
        status_message=status if isinstance(status, str) else None,
        if_=condition,
    )


def _timeout(item: Mapping[str, Any], *, where: str, dialect: Dialect) -> float | None:
    value = item.get("timeout", item.get("timeoutSec"))
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ConfigError(f"{where}.timeout: got {value!r}, expected a number > 0")
    # Gemini CLI writes milliseconds; everyone else seconds.
    return float(value) / 1000 if dialect == "gemini" else float(value)
