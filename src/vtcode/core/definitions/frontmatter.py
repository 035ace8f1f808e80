"""Frontmatter of definition files (skills, commands, agents) read leniently (pure).

People write `description: Use when: PDFs` and `paths: **/*.ts`, which strict YAML rejects; the Agent
Skills client guide says to load such files anyway. So YAML is tried first and, when it fails, a
line-based reader takes every top-level `key: value` (the value is the rest of the line, colons kept),
`key: [a, b]` lists and `key:` followed by `- item` lines. Problems are returned as diagnostics text,
never raised: the caller names the file.
"""

from __future__ import annotations

from typing import Any

import msgspec

from vtcode.core.instructions.text import block_lines, split_frontmatter, unquote


class ParsedFrontmatter(msgspec.Struct, frozen=True):
    """A definition file split into its frontmatter fields, its body and what was wrong with it.

    `fields` is empty when there is no frontmatter (or it could not be read at all); `has_frontmatter`
    tells those apart from an empty block. Diagnostics are human sentences without the file name.
    (A Struct, not a NamedTuple: creating a NamedTuple class costs a third of a millisecond at import.)
    """

    fields: dict[str, Any]
    body: str
    diagnostics: tuple[str, ...] = ()
    has_frontmatter: bool = False


def parse_frontmatter(text: str) -> ParsedFrontmatter:
    """Split `text` at a leading `---` block and read the block as YAML, leniently.

    A BOM is ignored; an unclosed block is ordinary body text. A block that is not a mapping, or that
    neither YAML nor the line reader can read, yields no fields and one diagnostic.
    """
    split = split_frontmatter(text.removeprefix("\ufeff"))
    if split.block is None:
        return ParsedFrontmatter({}, split.body)
    if not split.block.strip():
        return ParsedFrontmatter({}, split.body, (), True)
    simple = _simple(split.block)
    if simple is not None:
        # Plain `key: value` lines (most skills): read without YAML, which costs ~0.1 ms a file.
        return ParsedFrontmatter(simple, split.body, (), True)
    # Imported here: PyYAML costs milliseconds at start-up and only files with frontmatter need it.
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(split.block, Loader=loader)  # a safe loader: plain data only
    except yaml.YAMLError as exc:
        problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        lines = read_lines(split.block)
        if lines is None:
            return ParsedFrontmatter({}, split.body, (f"frontmatter is not valid YAML ({problem})",), True)
        return ParsedFrontmatter(lines, split.body, (), True)
    except (RecursionError, ValueError) as exc:  # deeply nested or absurd input
        return ParsedFrontmatter({}, split.body, (f"frontmatter could not be read ({exc})",), True)
    if data is None:
        return ParsedFrontmatter({}, split.body, (), True)
    if not isinstance(data, dict):
        return ParsedFrontmatter({}, split.body, ("frontmatter is not a mapping of keys to values",), True)
    return ParsedFrontmatter({str(key): value for key, value in data.items()}, split.body, (), True)


def frontmatter_body(text: str) -> str:
    """The text after the frontmatter block: the `body` `parse_frontmatter` gives, without reading
    the block (a skill's body read on use)."""
    return split_frontmatter(text.removeprefix("\ufeff")).body


_SPECIAL = tuple("[{&*!|>'\"%@`#-?,")


def _simple(block: str) -> dict[str, Any] | None:
    """The fields of a block of only top-level `key: plain text` lines, as YAML reads them; None when
    any line needs YAML (indentation, lists, quotes, flow collections, comments, `null`, numbers)."""
    data: dict[str, Any] = {}
    for line in block.splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition(": ")
        if not sep:
            name, sep, value = line.partition(":")
            if not sep or value:
                return None
        value = value.strip()
        if not name or not name.replace("-", "").replace("_", "").isalnum() or name in data:
            return None
        # `a: b` inside a value is what strict YAML rejects and the lenient reader takes as text anyway.
        if not value or value.startswith(_SPECIAL) or " #" in value:
            return None
        lowered = value.lower()
        if lowered in ("true", "false"):
            data[name] = lowered == "true"
        elif lowered in ("null", "~", "yes", "no", "on", "off") or _number(value):
            return None
        else:
            data[name] = value
    return data


# What `float()` accepts starts with one of these (digits, a sign, a point, `inf`, `nan`).
_NUMBER_START = frozenset("0123456789+-.iInN")


def _number(value: str) -> bool:
    if value[:1] not in _NUMBER_START:
        return False  # most values: no exception raised and caught to learn it
    try:
        float(value)
    except ValueError:
        return value[:1].isdigit()  # dates, octals, 1_000: left to YAML
    return True


def read_lines(block: str) -> dict[str, Any] | None:
    """Top-level keys by lines; None when a top-level line has no `key:` (nothing sensible to read)."""
    data: dict[str, Any] = {}
    key: str | None = None
    for line in block_lines(block):
        if line.top_level:
            if not line.separated or not line.key:
                return None
            key = line.key
            data[key] = _inline(line.value)
        elif key is not None and line.text.startswith("- "):
            items = data.get(key)
            item = unquote(line.text[2:].strip())
            data[key] = [*items, item] if isinstance(items, list) else [item]
        elif key is not None and isinstance(data.get(key), str):
            # An indented continuation of a free-text value (a folded description).
            data[key] = f"{data[key]} {line.text}".strip()
    return data


def _inline(value: str) -> Any:
    if not value:
        return None
    if value.startswith("[") and value.endswith("]"):
        return [unquote(item.strip()) for item in value[1:-1].split(",") if item.strip()]
    lowered = value.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return unquote(value)


def text_field(fields: dict[str, Any], key: str) -> str | None:
    """A string field, stripped; numbers are accepted as text, anything else (or blank) is None."""
    value = fields.get(key)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (str, int, float)):
        text = str(value).strip()
        return text or None
    return None


def flag_field(fields: dict[str, Any], key: str, default: bool) -> bool:
    """A boolean field (`true`/`false`, also as strings); anything else is `default`."""
    value = fields.get(key)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return default


def list_field(fields: dict[str, Any], key: str, *, separator: str | None = None) -> tuple[str, ...]:
    """A list of strings: a YAML list, or a string split on `separator` (whitespace when None)."""
    value = fields.get(key)
    if isinstance(value, str):
        parts = value.split(separator) if separator is not None else value.split()
        return tuple(part.strip() for part in parts if part.strip())
    if isinstance(value, list):
        return tuple(
            str(item).strip() for item in value if isinstance(item, (str, int)) and str(item).strip()
        )
    return ()
