"""Fuzzy matching of paths for a picker: the query's characters in order, best matches first."""

from __future__ import annotations

from collections.abc import Iterable


def fuzzy_score(query: str, path: str) -> int | None:
    """How well `path` matches `query` (higher is better), or None when it does not.

    The query's characters must appear in order (case-insensitive). Runs of adjacent characters, matches
    in the file name and at word starts, and short paths score higher.
    """
    query = query.replace(" ", "")
    if not query:
        return -len(path)
    lowered = path.lower()
    name_start = lowered.rfind("/") + 1
    score = 0
    position = -1
    previous = -2
    for character in query.lower():
        position = lowered.find(character, position + 1)
        if position < 0:
            return None
        score += 10
        if position == previous + 1:
            score += 15
        if position >= name_start:
            score += 5
        if position == 0 or lowered[position - 1] in "/_-. ":
            score += 10
        previous = position
    if query.lower() in lowered[name_start:]:
        score += 50
    return score - len(path)


def fuzzy_rank(query: str, paths: Iterable[str], limit: int = 50) -> list[str]:
    """The paths that match `query`, best first (ties: shorter, then alphabetical), at most `limit`."""
    scored = [(score, path) for path in paths if (score := fuzzy_score(query, path)) is not None]
    scored.sort(key=lambda pair: (-pair[0], len(pair[1]), pair[1]))
    return [path for _, path in scored[:limit]]
