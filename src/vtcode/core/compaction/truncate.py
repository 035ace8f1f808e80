"""Cutting text to a token budget with only a counter, and the visible marker that says so."""

from __future__ import annotations

from vtcode.core.tokens import TextCounter


def omitted_marker(omitted_tokens: int) -> str:
    """The note appended where text was cut, so neither the model nor a person mistakes it for the whole."""
    return f"\n[… {omitted_tokens} tokens omitted by compaction]"


def head_within(text: str, limit: int, count: TextCounter) -> str:
    """The longest prefix found of `text` whose count is at most `limit` (approximate, never over)."""
    if limit <= 0 or not text:
        return ""
    # Start from a generous character guess (a token is rarely over 4 characters of source text), then
    # shrink in proportion to the overshoot; only slices near the budget are ever counted.
    cut = min(len(text), limit * 4)
    while cut > 0:
        used = count(text[:cut])
        if used <= limit:
            return text[:cut]
        cut = min(cut - 1, cut * limit // used)
    return ""


def shorten(text: str, limit: int, count: TextCounter) -> str:
    """`text` if it fits `limit` tokens, else its head and a marker, the whole within `limit`."""
    total = count(text)
    if total <= limit:
        return text
    marker = omitted_marker(total)
    head = head_within(text, max(0, limit - count(marker)), count)
    return head + omitted_marker(total - count(head)) if head else marker.lstrip("\n")[: max(0, limit * 4)]
