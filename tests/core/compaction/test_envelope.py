"""The session memory envelope: merge rules, rendering, placement (reference 14.5, 14.4 C-1, C-2)."""

from __future__ import annotations

from vtcode.core.compaction.envelope import (
    ENVELOPE_HEADER,
    Envelope,
    EnvelopeUpdate,
    GroundedFact,
    PendingIntent,
    Placement,
    compaction_summary,
    compaction_update,
    merge,
    merge_ids,
    merge_strings,
    place,
    render,
    same_content,
    strip_envelopes,
)
from vtcode.core.compaction.summary import SUMMARY_PREFIX
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

NOW = "2026-12-01T14:00:00Z"


def test_pending_intents_are_replaced_and_capped_at_16() -> None:
    pending = tuple(PendingIntent(id=f"i{n}", text=f"steer {n}") for n in range(20))
    envelope = merge(None, EnvelopeUpdate(pending_intents=pending), session_id="s", now=NOW)
    assert envelope.pending_intents == pending[:16]
    assert envelope.schema_version == 3
    kept = merge(envelope, EnvelopeUpdate(summary="x"), session_id="s", now=NOW)
    assert kept.pending_intents == pending[:16]


def test_applied_ids_move_to_the_end_and_keep_the_last_64() -> None:
    assert merge_ids(["a", "b", "c"], ["b", "d"]) == ("a", "c", "b", "d")
    full = [f"id{n}" for n in range(64)]
    assert merge_ids(full, ["new"]) == (*full[1:], "new")


def test_string_lists_merge_case_and_space_insensitively() -> None:
    assert merge_strings(["Use  tabs", "x"], ["use tabs", ""], 5) == ("x", "use tabs")
    assert merge_strings([str(n) for n in range(5)], ["5"], 5) == ("1", "2", "3", "4", "5")


def test_an_update_keeps_what_it_does_not_mention() -> None:
    prior = merge(
        None,
        EnvelopeUpdate(
            objective="ship it",
            touched_files=("a.py",),
            grounded_facts=(GroundedFact("tests pass", "pytest"),),
            history_artifact_path="archive/compaction-0001.jsonl",
        ),
        session_id="s",
        now=NOW,
    )
    later = merge(prior, EnvelopeUpdate(touched_files=("b.py", "a.py")), session_id="s", now="later")
    assert later.objective == "ship it"
    assert later.touched_files == ("b.py", "a.py")
    assert later.history_artifact_path == "archive/compaction-0001.jsonl"
    assert same_content(prior, merge(prior, EnvelopeUpdate(), session_id="s", now="later"))
    assert not same_content(prior, later)


def test_the_rendered_envelope_never_shows_steering_bookkeeping() -> None:
    envelope = Envelope(
        summary="working on the parser",
        objective="parse TOML",
        touched_files=("src/parse.py",),
        grounded_facts=(GroundedFact("42 tests pass", "pytest"),),
        pending_intents=(PendingIntent(id="i1", text="SECRET-STEER"),),
        applied_intent_ids=("applied-1",),
        history_artifact_path="archive/compaction-0002.jsonl",
    )
    text = render(envelope).content
    assert text == (
        f"{ENVELOPE_HEADER}\nSummary:\nworking on the parser\n\nObjective:\nparse TOML\n\n"
        "Touched Files:\n- src/parse.py\n\nGrounded Facts:\n[pytest] 42 tests pass\n\n"
        "History Artifact:\narchive/compaction-0002.jsonl"
    )
    assert "SECRET-STEER" not in text
    assert "i1" not in text
    assert "applied-1" not in text


def test_placement_and_replacement() -> None:
    summary = SystemMessage(SUMMARY_PREFIX + "summ")
    old = render(Envelope(summary="old"))
    history: list[Message] = [
        old,
        summary,
        UserMessage("a"),
        AssistantMessage(content="a"),
        UserMessage("b"),
        AssistantMessage(content="b"),
    ]
    new = render(Envelope(summary="new"))
    auto = place(history, new, Placement.BEFORE_LAST_USER_OR_SUMMARY)
    assert auto == [summary, UserMessage("a"), AssistantMessage(content="a"), new, *history[4:]]
    manual = place(history, new, Placement.START)
    assert manual == [new, *history[1:]]
    assert strip_envelopes(manual) == history[1:]


def test_the_envelope_summary_comes_from_the_summary_message_or_recent_context() -> None:
    assert compaction_summary([SystemMessage(SUMMARY_PREFIX + "the gist"), UserMessage("u")]) == "the gist"
    recent = compaction_summary(
        [SystemMessage(SUMMARY_PREFIX), UserMessage("fix it"), AssistantMessage(content="ok")]
    )
    assert (
        recent
        == "Compacted earlier conversation state. Recent preserved context: user: fix it | assistant: ok"
    )
    assert compaction_summary([]) == "Compacted earlier conversation state."


def test_a_compaction_records_its_summary_touched_files_and_artifact() -> None:
    source: list[Message] = [
        UserMessage("edit"),
        AssistantMessage(tool_calls=(ToolCall("c1", "read_file", '{"path": "src/a.py"}'),)),
        ToolResultMessage(
            call_id="c1", name="read_file", content="...", meta=MessageMeta(paths=("src/a.py",))
        ),
        AssistantMessage(tool_calls=(ToolCall("c2", "write_file", '{"path": "/repo/src/b.py"}'),)),
        ToolResultMessage(
            call_id="c2", name="write_file", content="ok", meta=MessageMeta(paths=("/repo/src/b.py",))
        ),
    ]
    compacted: list[Message] = [SystemMessage(SUMMARY_PREFIX + "edited a and b"), UserMessage("edit")]
    update = compaction_update(
        compacted, source, workspace="/repo", artifact_path="archive/compaction-0001.jsonl"
    )
    envelope = merge(None, update, session_id="s", now=NOW)
    assert (envelope.summary, envelope.touched_files, envelope.history_artifact_path) == (
        "edited a and b",
        ("src/a.py", "src/b.py"),
        "archive/compaction-0001.jsonl",
    )


def test_the_envelope_in_history_repeats_neither_the_summary_nor_the_file_list() -> None:
    envelope = Envelope(
        summary="working on the parser",
        objective="parse TOML",
        touched_files=tuple(f"src/read_{n}.py" for n in range(120)),
        history_artifact_path="archive/compaction-0002.jsonl",
    )
    assert render(envelope, in_history=True).content == (
        f"{ENVELOPE_HEADER}\n\nObjective:\nparse TOML\n\nHistory Artifact:\narchive/compaction-0002.jsonl"
    )
