"""`recall` over archived segments: matches, excerpts around the match, whole messages when reading."""

from __future__ import annotations

from vtcode.core.compaction.recall import recall, render_page
from vtcode.protocol.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage

LISTING = "".join(f"file 0 line {i}: alpha0 beta{i} gamma\n" for i in range(200))
SEGMENTS: list[tuple[int, list[Message]]] = [
    (
        1,
        [
            UserMessage("use tabs, never spaces"),
            AssistantMessage(tool_calls=(ToolCall("c1", "read_file", '{"path": "f0.txt"}'),)),
            ToolResultMessage(call_id="c1", name="read_file", content=LISTING),
        ],
    ),
    (2, [UserMessage("now the docs"), AssistantMessage(content="Docs use tabs too.")]),
]


def test_a_query_finds_messages_with_every_word_newest_segment_first() -> None:
    page = recall(SEGMENTS, query="TABS")
    assert [(h.segment, h.index, h.role) for h in page.hits] == [(2, 1, "assistant"), (1, 0, "user")]
    assert recall(SEGMENTS, query="read_file f0.txt").hits[0].role == "assistant"


def test_the_excerpt_shows_where_the_rarer_word_matched_not_the_first_word() -> None:
    (hit,) = recall(SEGMENTS, query="alpha0 beta177").hits
    assert "file 0 line 177: alpha0 beta177" in hit.excerpt
    assert len(hit.excerpt) < 300


def test_reading_a_segment_without_a_query_shows_messages_whole_in_pages() -> None:
    page = recall(SEGMENTS, segment=1, offset=2, limit=1)
    assert page.total == 3
    (hit,) = page.hits
    assert hit.excerpt.startswith("file 0 line 0")
    assert "line 100:" in hit.excerpt
    assert "(more" not in render_page(page)
    assert "(more: call again with offset=1)" in render_page(recall(SEGMENTS, segment=1, limit=1))
