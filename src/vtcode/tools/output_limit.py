"""Fitting tool results into the output budget a model is given (`ToolContext.max_output_bytes`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

# Room kept for the closing note ("[N more ... not shown; ...]") so it always fits.
NOTE_RESERVE_BYTES = 256


def clip_utf8(text: str, max_bytes: int, *, suffix: str = "…") -> str:
    """`text` cut to at most `max_bytes` UTF-8 bytes (suffix included), never inside a character."""
    encoded = text.encode("utf-8", errors="surrogatepass")
    if len(encoded) <= max_bytes:
        return text
    room = max(0, max_bytes - len(suffix.encode("utf-8")))
    return encoded[:room].decode("utf-8", errors="ignore") + suffix


def fit_lines(
    lines: Sequence[str],
    *,
    max_items: int,
    max_bytes: int,
    more_note: Callable[[int], str],
) -> str:
    """Join as many `lines` as fit both limits; the hidden remainder is counted in a closing note."""
    budget = max(1, max_bytes - NOTE_RESERVE_BYTES)
    shown: list[str] = []
    used = 0
    for line in lines[:max_items]:
        size = len(line.encode("utf-8", errors="surrogatepass")) + 1
        if used + size > budget:
            if not shown:
                # One huge line still shows its head rather than nothing at all.
                shown.append(clip_utf8(line, budget))
            break
        shown.append(line)
        used += size
    hidden = len(lines) - len(shown)
    text = "\n".join(shown)
    if hidden:
        text = f"{text}\n{more_note(hidden)}" if text else more_note(hidden)
    return text
