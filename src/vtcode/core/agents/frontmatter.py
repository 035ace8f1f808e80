"""The frontmatter of an agent definition file as a mapping (pure), read by the shared lenient parser.

Agent files and SKILL.md files share a shape (a `---` YAML block, then a Markdown body) and the same
problem: strict YAML rejects what people write (`description: Use when: the user asks ...`).
`core.definitions.frontmatter` reads both; here a file it cannot read becomes a `FrontmatterProblem`,
because an agent definition without its frontmatter is no definition.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from vtcode.core.definitions.frontmatter import parse_frontmatter


class FrontmatterProblem(ValueError):
    """Frontmatter that cannot be read at all; the file is skipped with this message."""


class Document(NamedTuple):
    """A definition file: its frontmatter keys and its body."""

    keys: dict[str, Any]
    body: str


def read_frontmatter(text: str) -> Document:
    """Split `text` and read its frontmatter: YAML first, `key: value` lines when YAML fails."""
    parsed = parse_frontmatter(text)
    if not parsed.has_frontmatter:
        raise FrontmatterProblem("no frontmatter: the file must start with a `---` block")
    if parsed.diagnostics:
        raise FrontmatterProblem(parsed.diagnostics[0])
    return Document(parsed.fields, parsed.body)
