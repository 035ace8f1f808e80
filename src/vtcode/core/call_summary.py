"""The arguments of a tool call that a person wants to see on one line (pure; shared by front ends)."""

from __future__ import annotations

import json

from vtcode.core.exec.text import clean_text

# Reads and searches are shown by what they name: paths, patterns, queries.
_ARGUMENT_KEYS = ("path", "pattern", "glob", "query", "paths", "subagent_type")


def argument_summary(arguments: str, *, width: int = 100) -> str:
    """Paths and patterns of a call's JSON arguments, on one line without control sequences."""
    try:
        values = json.loads(arguments or "{}")
    except ValueError:
        return ""
    if not isinstance(values, dict):
        return ""
    shown = [str(values[key]) for key in _ARGUMENT_KEYS if values.get(key)]
    text = clean_text(" ".join(shown)).replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"
