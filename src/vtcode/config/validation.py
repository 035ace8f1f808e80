"""Check one layer's raw TOML table against the schema and say precisely what is wrong.

Each layer is checked on its own, before merging, so an error names the file (or variable, or `-c`
option) the bad value came from. The walk is driven by `msgspec.inspect` type information of
`Settings`, so the schema module stays the only place where keys, types and ranges are written down.
Messages follow SPEC section 3: `<source>:<dotted.key>: <what is wrong>, expected <what>`.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

import msgspec
import msgspec.inspect as mi

from vtcode.config.schema import BUILTIN_PROVIDERS, Settings
from vtcode.core.hooks.model import SNAKE_EVENTS
from vtcode.protocol.errors import ConfigError

KeyPath = tuple[str, ...]


@functools.cache
def _settings_type() -> mi.StructType:
    # The whole schema, for suggestions after a mistake (~3 ms to build).
    return cast(mi.StructType, mi.type_info(Settings))


@functools.cache
def _sections() -> dict[str, Any]:
    """The top-level keys of `Settings` and their annotations (no schema walk)."""
    return {f.encode_name: f.type for f in msgspec.structs.fields(Settings)}


@functools.cache
def _section_type(key: str) -> mi.Type:
    # One table's schema, built when a layer sets a key in it: `-c network.max_retries=0` need not
    # walk all of `Settings`. The same type as that field's in `_settings_type()` (a test compares).
    return mi.type_info(_sections()[key])


# SPEC section 6 item 9 spells the compaction switch `[agent] auto_compaction_enabled`; the reference
# keeps it under `[agent.harness]`. Both are accepted; the alias is folded into the real key per layer.
# VT Code spells hook events in snake_case (`[[hooks.pre_tool_use]]`); Claude Code's names are the keys.
ALIASES: Final[Mapping[KeyPath, KeyPath]] = {
    ("agent", "auto_compaction_enabled"): ("agent", "harness", "auto_compaction_enabled"),
    **{("hooks", snake): ("hooks", event) for snake, event in SNAKE_EVENTS.items()},
}

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_INDEX = re.compile(r"\[\d+\]")
_MAX_SHOWN = 60
_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


class _Invalid(Exception):
    """One problem at one key; turned into a ConfigError once the source is known."""

    def __init__(self, path: KeyPath, problem: str, *, about_value: bool = True) -> None:
        super().__init__(problem)
        self.path = path
        self.problem = problem
        self.about_value = about_value


def format_key(path: Sequence[str]) -> str:
    """A dotted key as a user would write it in TOML, quoting segments such as `"gpt-4.1"`.

    A segment `[N]` is the N-th table of an array of tables (`hooks.PreToolUse[0].matcher`).
    """
    text = ""
    for part in path:
        if _INDEX.fullmatch(part):
            text += part
            continue
        text += ("." if text else "") + (part if _BARE_KEY.fullmatch(part) else json.dumps(part))
    return text


def describe_value(value: object) -> str:
    """`"abc" (str)`: the offending value in TOML spelling, shortened, with its Python type."""
    shown = _toml_spelling(value)
    if len(shown) > _MAX_SHOWN:
        shown = shown[: _MAX_SHOWN - 3] + "..."
    return f"{shown} ({type(value).__name__})"


def validate_layer(table: Mapping[str, Any], *, source: str, value_hint: str | None = None) -> dict[str, Any]:
    """Check a layer's table; return it with aliases folded in, or raise ConfigError naming `source`.

    `value_hint` is attached to errors about a value (not about a key), e.g. how to quote a `-c` value.
    """
    try:
        normalized = _fold_aliases(table)
        _check_sections(normalized)
    except _Invalid as invalid:
        raise ConfigError(
            f"{source}:{format_key(invalid.path)}: {invalid.problem}",
            hint=value_hint if invalid.about_value else None,
        ) from None
    return normalized


def validate_provider(settings: Settings, *, source: str) -> None:
    """Reject an `agent.provider` that is neither built in nor defined under `[providers]`."""
    provider = settings.agent.provider
    known = (*BUILTIN_PROVIDERS, *sorted(settings.providers))
    if provider is None or provider in known:
        return
    close = _close_matches(provider, known, n=1)
    names = ", ".join(json.dumps(name) for name in BUILTIN_PROVIDERS)
    raise ConfigError(
        f"{source}:agent.provider: got {describe_value(provider)}, "
        f"expected one of {names} or a name defined as [providers.<name>]",
        hint=f"did you mean {json.dumps(close[0])}?" if close else None,
    )


def _toml_spelling(value: object) -> str:
    """How `value` looks in TOML, so the message quotes what the user wrote."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_spelling(item) for item in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{format_key([str(k)])} = {_toml_spelling(v)}" for k, v in value.items())
        return "{" + items + "}"
    return str(value)


def _fold_aliases(table: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of `table` with every alias key moved to the key it stands for."""
    result: dict[str, Any] = copy.deepcopy(dict(table))
    for alias, target in ALIASES.items():
        parent = _lookup(result, alias[:-1])
        if not isinstance(parent, dict) or alias[-1] not in parent:
            continue
        _check(parent[alias[-1]], _type_at(target), alias)
        node: dict[str, Any] = result
        for depth, part in enumerate(target[:-1], start=1):
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                _check(child, _type_at(target[:depth]), target[:depth])
            node = child
        if target[-1] in node:
            raise _Invalid(
                alias,
                f"set together with {format_key(target)}, expected only one of the two",
                about_value=False,
            )
        node[target[-1]] = parent.pop(alias[-1])
    return result


def _lookup(table: Mapping[str, Any], path: KeyPath) -> object:
    """The value at `path`, or None when any part of it is missing."""
    node: object = table
    for part in path:
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def _check_sections(table: Mapping[str, Any]) -> None:
    """`_check` of a whole layer against `Settings`, one top-level table at a time."""
    sections = _sections()
    for key, item in table.items():
        if key not in sections:
            raise _Invalid((key,), _unknown_key(key, (), sections), about_value=False)
        _check(item, _section_type(key), (key,))


def _type_at(path: KeyPath) -> mi.Type:
    """The schema type of the key at `path` (aliases resolve only to real keys)."""
    node: mi.Type = _section_type(path[0])
    for part in path[1:]:
        node = _unwrap(node)
        if isinstance(node, mi.StructType):
            node = next(f.type for f in node.fields if f.encode_name == part)
        elif isinstance(node, mi.DictType):
            node = node.value_type
        else:  # pragma: no cover - ALIASES only names struct fields
            raise KeyError(path)
    return node


def _unwrap(t: mi.Type) -> mi.Type:
    """The type below `Metadata` and `X | None`, for walking into tables."""
    if isinstance(t, mi.Metadata):
        t = t.type
    if isinstance(t, mi.UnionType):
        members = [m for m in t.types if not isinstance(m, mi.NoneType)]
        if len(members) == 1:
            return members[0]
    return t


def _check(value: object, t: mi.Type, path: KeyPath) -> None:
    """Raise _Invalid at the first place where `value` does not fit `t`."""
    if value is not None and isinstance(_unwrap(t), mi.StructType):
        t = _unwrap(t)  # an optional table (`[pricing.X.long_context]`), given
    if isinstance(t, mi.StructType):
        _check_table(value, t, path)
    elif isinstance(t, mi.DictType):
        if not isinstance(value, dict):
            raise _Invalid(path, f"got {describe_value(value)}, expected {expected(t)}")
        for key, item in value.items():
            _check(item, t.value_type, (*path, key))
    elif isinstance(t, mi.ListType | mi.VarTupleType) and isinstance(t.item_type, mi.StructType):
        # An array of tables (`[[hooks.PreToolUse]]`): each table is checked key by key.
        if not isinstance(value, list | tuple):
            raise _Invalid(path, f"got {describe_value(value)}, expected {expected(t)}")
        for index, item in enumerate(value):
            _check(item, t.item_type, (*path, f"[{index}]"))
    elif not _fits(value, t):
        raise _Invalid(path, _wrong_value(value, t))


def _check_table(value: object, t: mi.StructType, path: KeyPath) -> None:
    """Check a TOML table against a Struct: unknown keys first, then each value."""
    if not isinstance(value, dict):
        raise _Invalid(path, f"got {describe_value(value)}, expected {expected(t)}")
    fields = {f.encode_name: f for f in t.fields}
    for key, item in value.items():
        if key not in fields:
            raise _Invalid((*path, key), _unknown_key(key, path, fields), about_value=False)
        _check(item, fields[key].type, (*path, key))


def _unknown_key(key: str, parent: KeyPath, fields: Mapping[str, object]) -> str:
    """`unknown key, did you mean X?` or, with no close spelling, the keys this table has."""
    local = [*fields, *(alias[-1] for alias in ALIASES if alias[:-1] == parent)]
    # A key that exists verbatim in another table was put in the wrong table; say where it belongs
    # before offering a look-alike of this table (`[agent] max_context_tokens` is not a typo).
    suggestion = _misplaced(key, cutoff=1.0)
    if suggestion is None:
        close = _close_matches(key, local, n=1)
        suggestion = (*parent, close[0]) if close else _misplaced(key, cutoff=0.8)
    if suggestion is not None:
        return f"unknown key, did you mean {format_key(suggestion)}?"
    return f"unknown key, expected one of {', '.join(local)}"


def _misplaced(key: str, *, cutoff: float) -> KeyPath | None:
    """The one key of any table whose name is (close to) `key`; None when none or ambiguous."""
    by_name: dict[str, list[KeyPath]] = {}
    for path in _all_keys(_settings_type(), ()):
        by_name.setdefault(path[-1], []).append(path)
    close = _close_matches(key, list(by_name), n=1, cutoff=cutoff)
    if close and len(by_name[close[0]]) == 1:
        return by_name[close[0]][0]
    return None


def _all_keys(t: mi.StructType, prefix: KeyPath) -> list[KeyPath]:
    """Every fixed dotted key of a Struct, tables included; free-form `[models]` names excluded."""
    keys: list[KeyPath] = []
    for field in t.fields:
        path = (*prefix, field.encode_name)
        keys.append(path)
        if isinstance(field.type, mi.StructType):
            keys.extend(_all_keys(field.type, path))
    return keys


def _fits(value: object, t: mi.Type) -> bool:
    """Whether a scalar or list `value` satisfies type and range of `t`."""
    if isinstance(t, mi.Metadata):
        accept = (t.extra or {}).get("accept")
        return _fits(value, t.type) and (accept is None or bool(accept(value)))
    if isinstance(t, mi.UnionType):
        return any(_fits(value, member) for member in t.types)
    if isinstance(t, mi.NoneType):
        return value is None
    if isinstance(t, mi.BoolType):
        return isinstance(value, bool)
    if isinstance(t, mi.StrType):
        return isinstance(value, str)
    if isinstance(t, mi.LiteralType):
        return isinstance(value, str | int) and not isinstance(value, bool) and value in t.values
    if isinstance(t, mi.IntType):
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return _INT64_MIN <= value <= _INT64_MAX and _in_range(value, t)
    if isinstance(t, mi.FloatType):
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        return _in_range(value, t)
    if isinstance(t, mi.ListType | mi.VarTupleType):
        return isinstance(value, list | tuple) and all(_fits(item, t.item_type) for item in value)
    raise TypeError(f"config schema uses a type the validator does not know: {t!r}")


def _in_range(value: float, t: mi.IntType | mi.FloatType) -> bool:
    """Whether `value` meets the `Meta` bounds of `t` (NaN meets none)."""
    return (
        (t.ge is None or value >= t.ge)
        and (t.gt is None or value > t.gt)
        and (t.le is None or value <= t.le)
        and (t.lt is None or value < t.lt)
    )


def _wrong_value(value: object, t: mi.Type) -> str:
    """`got <value> (<type>), expected <what>`."""
    return f"got {describe_value(value)}, expected {expected(t)}"


def expected(t: mi.Type) -> str:
    """What a user may write for a key of type `t`, in words: `an integer >= 0`."""
    if isinstance(t, mi.Metadata):
        text = (t.extra or {}).get("expected")
        return str(text) if text is not None else expected(t.type)
    if isinstance(t, mi.UnionType):
        # TOML has no null: `X | None` means "X, or leave the key out".
        members = [m for m in t.types if not isinstance(m, mi.NoneType)]
        return " or ".join(expected(m) for m in members)
    if isinstance(t, mi.BoolType):
        return "true or false"
    if isinstance(t, mi.StrType):
        return "a string"
    if isinstance(t, mi.LiteralType):
        return "one of " + ", ".join(json.dumps(v) for v in t.values)
    if isinstance(t, mi.IntType):
        return "an integer" + _range_words(t)
    if isinstance(t, mi.FloatType):
        return "a number" + _range_words(t)
    if isinstance(t, mi.ListType | mi.VarTupleType):
        if isinstance(t.item_type, mi.StrType):
            return "a list of strings"
        return f"a list whose items are each {expected(t.item_type)}"
    if isinstance(t, mi.StructType | mi.DictType):
        return "a table"
    return repr(t)  # pragma: no cover - _fits already rejected unknown schema types


def _range_words(t: mi.IntType | mi.FloatType) -> str:
    """` between 1 and 3600`, ` >= 0`, ` > 0`: the bounds of a number, or nothing."""
    if t.ge is not None and t.le is not None:
        return f" between {t.ge} and {t.le}"
    bounds = [
        f"{op} {bound}"
        for op, bound in ((">=", t.ge), (">", t.gt), ("<=", t.le), ("<", t.lt))
        if bound is not None
    ]
    return " " + " and ".join(bounds) if bounds else ""


def to_settings(table: Mapping[str, Any]) -> Settings:
    """The merged table as `Settings`; every layer was validated, so this fails only on a bug."""
    try:
        return msgspec.convert(table, Settings)
    except msgspec.ValidationError as error:  # pragma: no cover - validate_layer mirrors the schema
        raise ConfigError(f"configuration: {error}") from None


def _close_matches(word: str, options: Sequence[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    import difflib  # only a mistake needs suggestions

    return difflib.get_close_matches(word, options, n=n, cutoff=cutoff)
