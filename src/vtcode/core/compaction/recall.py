"""`recall_history` over archived segments: find text that was compacted away, or page through a segment.

Pure: the caller loads the segments (store/archive.py) and renders the page for the model.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from vtcode.core.images import with_image_notes
from vtcode.protocol.messages import AssistantMessage, Message, SystemMessage, ToolResultMessage, UserMessage

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
_SNIPPET_CHARS = 240
# A message read from a segment (no query) shows this much of its text.
_READ_CHARS = 4_000


class Hit(msgspec.Struct, frozen=True):
    """One archived message: where it is and an excerpt around the match (or its start)."""

    segment: int
    index: int
    role: str
    excerpt: str


class RecallPage(msgspec.Struct, frozen=True):
    """A page of hits and how many matched in all, so the model can ask for the next offset."""

    hits: tuple[Hit, ...]
    total: int
    offset: int


def message_text(message: Message) -> tuple[str, str]:
    """The role label and searchable text of a message (calls by name and arguments)."""
    match message:
        case UserMessage(content=text, images=images):
            return "user", with_image_notes(text, images)
        case SystemMessage(content=text):
            return "system", text
        case AssistantMessage(content=text, tool_calls=calls):
            parts = [text, *(f"{call.name}({call.arguments})" for call in calls)]
            return "assistant", "\n".join(part for part in parts if part)
        case ToolResultMessage(name=name, content=text):
            return f"tool {name}", text


def recall(
    segments: Sequence[tuple[int, Sequence[Message]]],
    *,
    query: str | None = None,
    segment: int | None = None,
    offset: int = 0,
    limit: int = DEFAULT_LIMIT,
) -> RecallPage:
    """Messages matching `query` (case-insensitive, all words), newest segment first; or a segment's pages."""
    limit = max(1, min(limit, MAX_LIMIT))
    offset = max(0, offset)
    words = query.lower().split() if query else []
    chosen = [(number, messages) for number, messages in segments if segment is None or number == segment]
    if words:
        chosen.sort(key=lambda item: -item[0])
    hits: list[Hit] = []
    for number, messages in chosen:
        for index, message in enumerate(messages):
            role, text = message_text(message)
            lowered = text.lower()
            if all(word in lowered for word in words):
                if words:
                    hits.append(Hit(number, index, role, _excerpt(text, _anchor(lowered, words))))
                else:
                    # Reading a segment: each message whole, up to a page of text.
                    hits.append(Hit(number, index, role, _excerpt(text, 0, _READ_CHARS)))
    return RecallPage(hits=tuple(hits[offset : offset + limit]), total=len(hits), offset=offset)


def _anchor(lowered: str, words: Sequence[str]) -> int:
    """Where the excerpt centres: the whole query if it occurs as typed, else its rarest word's first use.

    The first word alone is a poor anchor: in a file listing it may occur on every line, the match on
    line 77 only where the rarer word is.
    """
    phrase = " ".join(words)
    at = lowered.find(phrase)
    if at >= 0:
        return at
    rarest = min(words, key=lowered.count)
    return lowered.find(rarest)


def _excerpt(text: str, at: int, size: int = _SNIPPET_CHARS) -> str:
    start = max(0, at - size // 3)
    piece = text[start : start + size]
    return ("…" if start else "") + piece + ("…" if start + size < len(text) else "")


def render_page(page: RecallPage) -> str:
    """The tool result text the model reads."""
    if not page.hits:
        return f"no archived message matched ({page.total} in all)"
    lines = [f"{page.total} archived message(s); showing {page.offset + 1}-{page.offset + len(page.hits)}:"]
    lines += [f"[segment {h.segment} #{h.index} {h.role}]\n{h.excerpt}" for h in page.hits]
    if page.offset + len(page.hits) < page.total:
        lines.append(f"(more: call again with offset={page.offset + len(page.hits)})")
    return "\n\n".join(lines)
