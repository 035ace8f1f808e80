"""Compaction artifacts in `archive/`, and recall over them, with real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from vtcode.core.compaction.recall import recall, render_page
from vtcode.protocol.errors import StoreError
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from vtcode.store.archive import (
    ArchiveHeader,
    list_segments,
    next_segment,
    read_segment,
    write_segment,
)


def _header(segment: int, count: int) -> ArchiveHeader:
    return ArchiveHeader(
        segment=segment,
        ts=1_700_000_000.0,
        trigger="hard",
        through_seq=count,
        message_count=count,
        tokens_before=30_000,
        tokens_after=9_000,
    )


HISTORY: list[Message] = [
    UserMessage("rename the Frobnicator to Widget", meta=MessageMeta(intent_id="i-7", turn=1)),
    AssistantMessage(tool_calls=(ToolCall("c1", "grep_files", '{"pattern": "Frobnicator"}'),)),
    ToolResultMessage(call_id="c1", name="grep_files", content="src/frob.py:3: class Frobnicator:"),
    AssistantMessage(content="Renamed in src/frob.py."),
]


def test_an_artifact_round_trips_with_metadata(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    assert (list_segments(archive), next_segment(archive)) == ([], 1)
    path = write_segment(archive, _header(1, len(HISTORY)), HISTORY)
    assert path == archive / "compaction-0001.jsonl"
    assert read_segment(path) == (_header(1, len(HISTORY)), HISTORY)
    assert next_segment(archive) == 2
    assert [p.name for p in archive.iterdir()] == ["compaction-0001.jsonl"]


def test_an_existing_segment_is_never_overwritten(tmp_path: Path) -> None:
    write_segment(tmp_path, _header(1, 1), HISTORY[:1])
    with pytest.raises(StoreError, match="already exists"):
        write_segment(tmp_path, _header(1, 1), HISTORY[1:2])
    assert read_segment(tmp_path / "compaction-0001.jsonl")[1] == HISTORY[:1]


def test_a_damaged_artifact_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "compaction-0001.jsonl"
    path.write_bytes(b'{"segment": 1}\n')
    with pytest.raises(StoreError, match=r"compaction-0001\.jsonl"):
        read_segment(path)


def test_recall_finds_compacted_text_and_pages(tmp_path: Path) -> None:
    write_segment(tmp_path, _header(1, len(HISTORY)), HISTORY)
    write_segment(tmp_path, _header(2, 1), [UserMessage("now add tests for Widget")])
    segments = [(number, read_segment(path)[1]) for number, path in list_segments(tmp_path)]
    page = recall(segments, query="frobnicator class")
    assert [(h.segment, h.index, h.role) for h in page.hits] == [(1, 2, "tool grep_files")]
    assert "class Frobnicator" in render_page(page)
    browse = recall(segments, segment=1, offset=1, limit=2)
    assert (browse.total, [h.index for h in browse.hits]) == (4, [1, 2])
    assert "(more: call again with offset=3)" in render_page(browse)
    assert (
        render_page(recall(segments, query="nothing like this")) == "no archived message matched (0 in all)"
    )
