"""`-c` options of the usual shapes are read as TOML reads them, without importing the TOML parser."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from vtcode.config.bare_overrides import bare_key, bare_value

_TEXT = st.text(alphabet="abtruefalsinf0123456789+-_.\"' =[]{}#:TZ", max_size=12)


def _toml_value(value: str) -> tuple[Any] | None:
    """What the TOML path makes of VALUE: (the value,), or None when it is text (not TOML)."""
    try:
        parsed = tomllib.loads(f"v = {value}")
    except tomllib.TOMLDecodeError:
        return None
    return (parsed["v"],) if parsed.keys() == {"v"} else None


@given(_TEXT)
def test_a_value_read_without_toml_is_what_toml_reads(value: str) -> None:
    got = bare_value(value)
    if got is not None:
        assert got == (_toml_value(value) or (value,))
        assert type(got[0]) is type((_toml_value(value) or (value,))[0])


@given(_TEXT)
def test_a_key_read_without_toml_is_what_toml_reads(key: str) -> None:
    got = bare_key(key)
    if got is not None:
        node: Any = tomllib.loads(f"{key} = 0")
        path = []
        while isinstance(node, dict):
            ((segment, node),) = node.items()
            path.append(segment)
        assert got == tuple(path)


def test_the_usual_shapes_take_the_short_way() -> None:
    assert bare_key("network.max_retries") == ("network", "max_retries")
    assert bare_key('models."gpt-4.1".context_window') is None
    assert [bare_value(v) for v in ("0", "-3", "true", "false", "full-auto", "gpt-4.1")] == [
        (0,),
        (-3,),
        (True,),
        (False,),
        ("full-auto",),
        ("gpt-4.1",),
    ]
    assert [bare_value(v) for v in ("1.5", "inf", "nan", "01", "1_000", '"x"', "[1]", "a b")] == [None] * 8


def test_parsing_the_usual_options_imports_no_toml_parser() -> None:
    probe = (
        "import sys\n"
        "from vtcode.config.overrides import parse_override\n"
        "layers = [parse_override(t) for t in ('network.max_retries=0', 'agent.approval=full-auto')]\n"
        "print([layer.table for layer in layers], 'tomllib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ("[{'network': {'max_retries': 0}}, {'agent': {'approval': 'full-auto'}}] False")
