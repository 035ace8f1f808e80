"""`-c/--config KEY=VALUE` overrides, as Codex CLI reads them.

KEY is a TOML dotted key (`context.max_context_tokens`, `models."gpt-4.1".context_window`); VALUE is
parsed as a TOML value (`30000`, `true`, `["a", "b"]`, `{ enabled = false }`) and, when it is not valid
TOML, taken as a plain string (`-c agent.model=gpt-4.1`). Both halves go through `tomllib` itself, so
quoting and escaping rules are exactly TOML's.
"""

from __future__ import annotations

import json
from typing import Any

from vtcode.config.bare_overrides import bare_key, bare_value
from vtcode.config.layers import Layer, nest
from vtcode.protocol.errors import ConfigError

_USAGE = "write -c KEY=VALUE, e.g. -c context.max_context_tokens=30000"
# A value that TOML parsed into something other than text is the usual surprise (`-c agent.model=1`).
_QUOTE_HINT = "VALUE is read as TOML; quote text to keep it a string: -c 'agent.model=\"1\"'"


def parse_override(text: str) -> Layer:
    """One `-c` option as a layer named `-c <text>`; a malformed option raises ConfigError."""
    source = f"-c {text}"
    split = _equals_index(text)
    if split is None:
        raise ConfigError(f'{source}: missing "=", expected KEY=VALUE', hint=_USAGE)
    path = _parse_key(text[:split].strip(), source)
    value = _parse_value(text[split + 1 :].strip())
    return Layer(source, nest(path, value), value_hint=_QUOTE_HINT)


def _equals_index(text: str) -> int | None:
    """Index of the first `=` outside a quoted key segment."""
    quote: str | None = None
    escaped = False
    for index, char in enumerate(text):
        if quote is None:
            if char in "\"'":
                quote = char
            elif char == "=":
                return index
        elif escaped:
            escaped = False
        elif char == "\\" and quote == '"':
            escaped = True
        elif char == quote:
            quote = None
    return None


def _parse_key(key: str, source: str) -> tuple[str, ...]:
    """The segments of a TOML dotted key, or ConfigError when it is not one."""
    bare = bare_key(key)
    if bare is not None:
        return bare
    path: list[str] = []
    if key and "\n" not in key and "\r" not in key:
        # Imported here: only `-c` options are parsed as TOML on the way to the first request.
        import tomllib

        try:
            node: Any = tomllib.loads(f"{key} = 0")
        except tomllib.TOMLDecodeError:
            node = None
        while isinstance(node, dict) and len(node) == 1:
            ((segment, node),) = node.items()
            path.append(segment)
    if not path:
        raise ConfigError(
            f"{source}: invalid key {json.dumps(key)}, "
            "expected a dotted key such as context.max_context_tokens",
            hint=_USAGE,
        )
    return tuple(path)


def _parse_value(value: str) -> object:
    """VALUE as TOML, else the text itself."""
    bare = bare_value(value)
    if bare is not None:
        return bare[0]
    import tomllib

    try:
        parsed = tomllib.loads(f"v = {value}")
    except tomllib.TOMLDecodeError:
        return value
    # Text such as `1\nx = 2` parses, but as two keys: it was not one TOML value.
    return parsed["v"] if parsed.keys() == {"v"} else value
