"""The scoping keys of a rule's frontmatter (pure): `paths`, `globs` (Cursor), `applyTo` (Copilot).

Strict YAML rejects what people write (`paths: **/*.ts` reads as an alias), so when YAML fails a
line-based reader takes over for the keys that matter here; only when that fails too is the rule
unparsable. Each key accepts a string (comma-separated, commas inside braces kept) or a list of strings.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import yaml

from vtcode.core.instructions.globs import split_patterns
from vtcode.core.instructions.text import block_lines, unquote

SCOPE_KEYS = ("paths", "globs", "applyTo")
_ALWAYS = "alwaysApply"
_DESCRIPTION = "description"


class FrontmatterError(ValueError):
    """Frontmatter whose scoping keys cannot be read; the rule is skipped with this message."""


class RuleScope(NamedTuple):
    """Where a rule applies: its patterns, Cursor's `alwaysApply`, whether any scoping key was set, and
    whether it has a `description` (Cursor's agent-requested rules have only that)."""

    patterns: tuple[str, ...] = ()
    always_apply: bool | None = None
    scoped: bool = False
    described: bool = False


@functools.lru_cache(maxsize=4096)
def parse_rule_scope(block: str | None) -> RuleScope:
    """The scope declared by a frontmatter block (None: no frontmatter, an unconditional rule).

    Cached by text: every rebuild of a session parses the same blocks again.
    """
    if block is None or not block.strip():
        return RuleScope()
    # Imported here: PyYAML costs ~8 ms at start-up and only rules with frontmatter need it.
    import yaml

    # libyaml's loader is several times faster; the pure-Python one is the fallback where it is missing.
    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(block, Loader=loader)  # a safe loader: plain data only
    except yaml.YAMLError as exc:
        data = _read_lines(block, _first_line(exc))
    if data is None:
        return RuleScope()
    if not isinstance(data, dict):
        raise FrontmatterError("frontmatter is not a mapping of keys to values")
    patterns: list[str] = []
    scoped = False
    for key in SCOPE_KEYS:
        if key in data:
            scoped = True
            patterns.extend(_patterns(key, data[key]))
    description = data.get(_DESCRIPTION)
    described = isinstance(description, str) and bool(description.strip())
    return RuleScope(tuple(patterns), _flag(data.get(_ALWAYS)), scoped, described)


def _patterns(key: str, value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return split_patterns(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [pattern for item in value for pattern in split_patterns(item)]
    raise FrontmatterError(f"`{key}` must be a string or a list of strings")


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def _first_line(exc: yaml.YAMLError) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _read_lines(block: str, yaml_problem: str) -> dict[str, Any]:
    """The scoping keys by lines: `key: value`, `key: [a, b]`, or `key:` then `- item` lines."""
    data: dict[str, Any] = {}
    key: str | None = None
    for line in block_lines(block):
        if line.top_level:
            key = line.key
            if not line.separated:
                raise FrontmatterError(f"frontmatter is not valid YAML ({yaml_problem})")
            if key == _DESCRIPTION:
                data[key] = unquote(line.value)  # free text: never parsed as a list
            elif key in SCOPE_KEYS or key == _ALWAYS:
                data[key] = _inline_value(key, line.value, yaml_problem)
        elif line.text.startswith("-") and key in SCOPE_KEYS:
            items = data.get(key)
            item = unquote(line.text[1:].strip())
            data[key] = [*items, item] if isinstance(items, list) else [item]
    return data


def _inline_value(key: str, value: str, yaml_problem: str) -> Any:
    if not value:
        return None
    if value.startswith("["):
        if not value.endswith("]"):
            raise FrontmatterError(f"`{key}` is not valid YAML ({yaml_problem})")
        return [unquote(item) for item in split_patterns(value[1:-1])]
    return unquote(value)
