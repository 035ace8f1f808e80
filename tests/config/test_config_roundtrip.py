"""`settings_to_toml` output loads back to the same settings; the schema keeps its invariants."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from vtcode.config import BUILTIN_PROVIDERS, Settings, load_settings, settings_to_toml

_FIXTURES = Path(__file__).parent / "fixtures"
_INT64 = (-(2**63), 2**63 - 1)


def _strategy(t: mi.Type) -> st.SearchStrategy[Any]:
    """Values that satisfy schema type `t`, derived from the same type info the loader checks."""
    if isinstance(t, mi.Metadata):
        accept = (t.extra or {}).get("accept")
        inner = _strategy(t.type)
        return inner.filter(accept) if accept is not None else inner
    if isinstance(t, mi.UnionType):
        return st.one_of([_strategy(member) for member in t.types])
    if isinstance(t, mi.NoneType):
        return st.none()
    if isinstance(t, mi.BoolType):
        return st.booleans()
    if isinstance(t, mi.StrType):
        return st.text(max_size=12)
    if isinstance(t, mi.LiteralType):
        return st.sampled_from(t.values)
    if isinstance(t, mi.IntType):
        low = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else _INT64[0])
        high = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else _INT64[1])
        return st.integers(min_value=low, max_value=high)
    if isinstance(t, mi.FloatType):
        return st.floats(
            min_value=t.gt if t.gt is not None else t.ge,
            max_value=t.lt if t.lt is not None else t.le,
            exclude_min=t.gt is not None,
            exclude_max=t.lt is not None,
            allow_nan=False,
        )
    if isinstance(t, mi.VarTupleType):
        return st.lists(_strategy(t.item_type), max_size=3).map(tuple)
    if isinstance(t, mi.DictType):
        return st.dictionaries(st.text(max_size=8), _strategy(t.value_type), max_size=2)
    if isinstance(t, mi.StructType):
        return st.builds(t.cls, **{field.name: _strategy(field.type) for field in t.fields})
    raise TypeError(f"no strategy for {t!r}")


def _valid_provider(settings: Settings) -> Settings:
    """Drop an `agent.provider` that names neither a built-in provider nor a `[providers]` table."""
    provider = settings.agent.provider
    if provider is None or provider in BUILTIN_PROVIDERS or provider in settings.providers:
        return settings
    agent = msgspec.structs.replace(settings.agent, provider=None)
    return msgspec.structs.replace(settings, agent=agent)


_SETTINGS = _strategy(mi.type_info(Settings)).map(_valid_provider)


def _load_as_user_file(text: str) -> Settings:
    """Load `text` as the only config file, in a throwaway home."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "vthome").mkdir()
        (root / "vthome" / "vtcode.toml").write_bytes(text.encode("utf-8"))
        env = {"HOME": str(root), "VTCODE_HOME": str(root / "vthome")}
        return load_settings(workspace=root / "ws", env=env).settings


@hypothesis_settings(max_examples=150, deadline=None)
@given(_SETTINGS)
def test_any_valid_settings_round_trip_through_toml(settings: Settings) -> None:
    assert _load_as_user_file(settings_to_toml(settings)) == settings


def test_default_settings_as_toml_match_the_golden_file() -> None:
    golden = (_FIXTURES / "defaults.toml").read_text(encoding="utf-8")
    assert settings_to_toml(Settings()) == golden
    assert _load_as_user_file(golden) == Settings()


def _structs(t: mi.Type) -> list[mi.StructType]:
    """Every Struct reachable from `t`."""
    if isinstance(t, mi.Metadata):
        return _structs(t.type)
    if isinstance(t, mi.UnionType):
        return [s for member in t.types for s in _structs(member)]
    if isinstance(t, mi.DictType):
        return _structs(t.value_type)
    if isinstance(t, mi.StructType):
        return [t, *(s for field in t.fields for s in _structs(field.type))]
    return []


def test_every_table_is_frozen_strict_and_fully_defaulted() -> None:
    for struct in _structs(mi.type_info(Settings)):
        config = struct.cls.__struct_config__
        assert (struct.cls.__name__, config.frozen, config.forbid_unknown_fields) == (
            struct.cls.__name__,
            True,
            True,
        )
        assert [f.name for f in struct.fields if f.required] == []


def test_every_optional_key_defaults_to_none() -> None:
    # settings_to_toml drops None (TOML has no null); that round-trips only if None is the default.
    for struct in _structs(mi.type_info(Settings)):
        for field in struct.fields:
            if isinstance(field.type, mi.UnionType) and any(
                isinstance(member, mi.NoneType) for member in field.type.types
            ):
                assert (struct.cls.__name__, field.name, field.default) == (
                    struct.cls.__name__,
                    field.name,
                    None,
                )
