"""Model-facing names of MCP tools: `mcp__SERVER__TOOL`, valid for every provider, stable across sessions.

Providers accept `^[a-zA-Z0-9_-]{1,64}$` (OpenAI, Anthropic; Gemini also allows `.` and `:`, a superset).
A name that does not fit is cut and given a short hash of the original, so two long names cannot
collide by the cut and the same server and tool always get the same name (the prompt cache prefix
depends on it). Collisions after sanitising (`a.b` and `a_b`) are resolved the same way, in a sorted
order, so the outcome never depends on which server answered first.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping

PREFIX = "mcp"
SEPARATOR = "__"
MAX_NAME = 64
_HASH_CHARS = 8
_INVALID = re.compile(r"[^A-Za-z0-9_-]+")


def sanitise(part: str) -> str:
    """`part` with every run of characters outside `[A-Za-z0-9_-]` replaced by one `_` (never empty)."""
    cleaned = _INVALID.sub("_", part)
    return cleaned or "_"


def _digest(server: str, tool: str) -> str:
    return hashlib.sha256(f"{server}\0{tool}".encode()).hexdigest()[:_HASH_CHARS]


def base_name(server: str, tool: str) -> str:
    """`mcp__SERVER__TOOL`, sanitised, cut to 64 characters with a hash of the original when too long."""
    name = SEPARATOR.join((PREFIX, sanitise(server), sanitise(tool)))
    if len(name) <= MAX_NAME:
        return name
    return name[: MAX_NAME - _HASH_CHARS - 1] + "_" + _digest(server, tool)


def assign_names(pairs: Iterable[tuple[str, str]]) -> Mapping[tuple[str, str], str]:
    """A distinct model-facing name for each `(server, tool)`; deterministic for the same set of pairs.

    The first pair in sorted order keeps its base name; any later pair whose base name is taken gets a
    hash suffix derived from its own server and tool.
    """
    names: dict[tuple[str, str], str] = {}
    taken: set[str] = set()
    for server, tool in sorted(set(pairs)):
        name = base_name(server, tool)
        if name in taken:
            stem = name[: MAX_NAME - _HASH_CHARS - 1]
            name = f"{stem}_{_digest(server, tool)}"
        taken.add(name)
        names[(server, tool)] = name
    return names


def server_prefix(server: str) -> str:
    """The prefix every tool name of `server` starts with (`mcp__SERVER__`), as rules write it."""
    return SEPARATOR.join((PREFIX, sanitise(server), ""))
