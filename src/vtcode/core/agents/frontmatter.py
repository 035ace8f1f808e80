"""The frontmatter of a definition file as a mapping (pure): the one seam to the shared skills parser.

Agent files and SKILL.md files share a shape (a `---` YAML block, then a Markdown body) and the same
problem: strict YAML rejects what people write (`description: Use when: the user asks ...`). Until the
skills loader's lenient parser lands, this module is that parser for agent files; swapping it is a
change of `read_frontmatter` alone.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from vtcode.core.instructions.text import split_frontmatter


class FrontmatterProblem(ValueError):
    """Frontmatter that cannot be read at all; the file is skipped with this message."""


class Document(NamedTuple):
    """A definition file: its frontmatter keys and its body."""

    keys: dict[str, Any]
    body: str


def read_frontmatter(text: str) -> Document:
    """Split `text` and read its frontmatter: YAML first, `key: value` lines when YAML fails."""
    block, body = split_frontmatter(text)
    if block is None:
        raise FrontmatterProblem("no frontmatter: the file must start with a `---` block")
    # Imported here: PyYAML costs milliseconds at start-up and most sessions have no agent files.
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(block, Loader=loader)  # a safe loader: plain data only
    except yaml.YAMLError as exc:
        data = _read_lines(block, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontmatterProblem("frontmatter is not a mapping of keys to values")
    return Document({str(k): v for k, v in data.items()}, body)


def _read_lines(block: str, yaml_problem: str) -> dict[str, Any]:
    """`key: value` lines (the value as text), and `- item` lines under an empty `key:`."""
    data: dict[str, Any] = {}
    key: str | None = None
    for raw in block.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[0] not in " \t-":
            name, sep, value = line.partition(":")
            if not sep or not name.strip():
                raise FrontmatterProblem(f"frontmatter is not valid YAML ({yaml_problem})")
            key = name.strip()
            data[key] = _unquote(value.strip()) if value.strip() else None
        elif stripped.startswith("-") and key is not None:
            items = data.get(key)
            item = _unquote(stripped[1:].strip())
            data[key] = [*items, item] if isinstance(items, list) else [item]
        else:
            raise FrontmatterProblem(f"frontmatter is not valid YAML ({yaml_problem})")
    return data


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value
