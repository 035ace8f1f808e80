"""The usual `-c KEY=VALUE` shapes read without the TOML parser (it costs start-up time to import).

`-c network.max_retries=0`, `-c agent.approval=full-auto`, `-c sandbox.enabled=false`: a dotted key of
bare segments and a decimal integer, a boolean or a bare word. Each reads exactly as TOML reads it;
anything else (quotes, floats, arrays, tables, spaces) is left to `tomllib` by returning None.
"""

from __future__ import annotations

import re

# TOML bare keys: ASCII letters, digits, `_` and `-`, joined by dots (no whitespace around them here).
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*")
# A decimal integer without underscores (TOML forbids leading zeros).
_INTEGER = re.compile(r"[+-]?(?:0|[1-9][0-9]*)")
# A word TOML cannot read as a value (it quotes strings; numbers and dates start with a digit or sign;
# `true`, `false`, `inf` and `nan` are the only bare words it knows): VALUE is then the text itself.
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9._-]*")
_TOML_WORDS = {"true": True, "false": False}


def bare_key(key: str) -> tuple[str, ...] | None:
    """The segments of a dotted key of bare segments; None for any other key."""
    return tuple(key.split(".")) if _BARE_KEY.fullmatch(key) else None


def bare_value(value: str) -> tuple[object] | None:
    """(the value,) for an integer, a boolean or a word that is not TOML; None for anything else."""
    if value in _TOML_WORDS:
        return (_TOML_WORDS[value],)
    if _INTEGER.fullmatch(value):
        return (int(value),)
    if _WORD.fullmatch(value) and value not in ("inf", "nan"):
        return (value,)
    return None
