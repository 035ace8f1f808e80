"""A whole compaction without the runtime: plan, summarize, assemble, archive, envelope, checkpoint, resume.

This is the sequence the runtime's before-request hook runs; the model is a scripted function.
"""

from __future__ import annotations

from pathlib import Path

from vtcode.core.compaction.envelope import Placement, compaction_update, merge, place, render
from vtcode.core.compaction.plan import CompactionSettings, assemble, plan_compaction
from vtcode.core.compaction.recall import recall
from vtcode.core.compaction.summary import SECTIONS
from vtcode.core.compaction.summary_run import SummaryRun
from vtcode.core.compaction.validity import intent_ids
from vtcode.core.tokens import MessageEstimator
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from vtcode.store import SessionStore
from vtcode.store.archive import ArchiveHeader, list_segments, next_segment, read_segment, write_segment
from vtcode.store.envelope import read_envelope, write_envelope
from vtcode.tokens.encoding import text_counter

SUMMARY = "\n".join(f"## {name}\nnone" for name in SECTIONS)


def _history() -> list[Message]:
    history: list[Message] = [UserMessage("rename Frobnicator everywhere, never touch migrations/")]
    for n in range(12):
        call = ToolCall(f"c{n}", "read_file", f'{{"path": "src/mod{n}.py"}}')
        history += [
            AssistantMessage(tool_calls=(call,)),
            ToolResultMessage(
                call_id=f"c{n}",
                name="read_file",
                content=f"class Frobnicator{n}:\n" + "x = 1\n" * 900,
                meta=MessageMeta(paths=(f"src/mod{n}.py",)),
            ),
        ]
    history += [
        UserMessage("also update the docs", meta=MessageMeta(intent_id="steer-1")),
        AssistantMessage(content="Docs updated."),
    ]
    return history


def test_a_compaction_checkpoints_archives_and_resumes(tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    workspace.mkdir()
    store = SessionStore(tmp_path / "home", clock=lambda: 1_000.0, new_id=lambda: "s1")
    history = _history()
    count = text_counter()
    estimate = MessageEstimator(count)
    settings = CompactionSettings(capacity=0, session_budget=30_000, workspace=str(workspace))
    with store.create(workspace, "rename") as handle:
        handle.append_messages(history, turn=1)

        plan = plan_compaction(history, estimate, settings)
        run = SummaryRun(plan, count, str(workspace))
        while run.request is not None:
            run.answered(SUMMARY)
        result = assemble(plan, run.summary, run.mode, estimate, settings)
        assert result.problems == ()
        assert result.changed

        segment = next_segment(handle.archive_dir)
        header = ArchiveHeader(
            segment=segment,
            ts=1_000.0,
            trigger="hard",
            through_seq=len(history),
            message_count=len(history),
            tokens_before=result.tokens_before,
            tokens_after=result.tokens_after,
        )
        artifact = write_segment(handle.archive_dir, header, plan.source)
        relative = str(artifact.relative_to(handle.dir))
        update = compaction_update(
            result.messages, plan.source, workspace=str(workspace), artifact_path=relative
        )
        envelope = merge(read_envelope(handle.dir), update, session_id="s1", now="2026-12-01T14:00:00Z")
        write_envelope(handle.dir, envelope)
        new_history = place(result.messages, render(envelope), Placement.BEFORE_LAST_USER_OR_SUMMARY)
        handle.append_compaction(summary=result.summary, messages=new_history, artifact_path=relative)

    with store.open("s1") as resumed:
        loaded = resumed.load()
    assert loaded.messages == new_history
    assert intent_ids(loaded.messages) == ["steer-1"]
    assert "never touch migrations/" in "\n".join(m.content for m in loaded.messages)
    assert result.tokens_after < 30_000 * 9 // 10 < result.tokens_before
    assert relative == "archive/compaction-0001.jsonl"
    assert envelope.touched_files[-1] == "src/mod11.py"
    segments = [
        (n, read_segment(path)[1])
        for n, path in list_segments(tmp_path / "home" / "sessions" / "s1" / "archive")
    ]
    assert [hit.index for hit in recall(segments, query="class Frobnicator3").hits] == [8]
