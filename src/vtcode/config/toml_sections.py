"""Textual edits of one `[table.NAME]` section of a TOML file, leaving every other byte as it was.

`vtcode mcp add/remove` change one server of a file people write by hand, with comments and their own
layout; a parse-and-dump round trip (tomli-w) would drop all of that. The caller checks the edited text
parses to the intended table, and rewrites the whole file only when it does not (an unusual layout).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import tomli_w

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")


def _key_path(header: str) -> tuple[str, ...]:
    """`mcp_servers."a b".env` as its keys (quotes removed); good enough for the headers vtcode writes."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([^.\s]+)', header)
    return tuple(next(p for p in part if p) if any(part) else "" for part in parts)


def without_section(text: str, table: str, name: str) -> str:
    """`text` without `[table.name]` and its subtables (`[table.name.env]`), up to the next other header."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    skipping = False
    for line in lines:
        header = _HEADER.match(line)
        if header is not None:
            keys = _key_path(header.group(1))
            skipping = keys[:2] == (table, name)
        if not skipping:
            out.append(line)
    return "".join(out)


def with_section(text: str, table: str, name: str, values: Mapping[str, Any]) -> str:
    """`text` with `[table.name]` holding `values` appended at the end, after a blank line."""
    body = tomli_w.dumps({table: {name: dict(values)}})
    if not text:
        return body
    return text.rstrip("\n") + "\n\n" + body
