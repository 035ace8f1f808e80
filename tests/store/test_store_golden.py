"""Golden fixtures of every persisted store format: files written by v1 must keep loading."""

from __future__ import annotations

import shutil
from pathlib import Path

from vtcode.protocol.messages import (
    AssistantMessage,
    MessageMeta,
    Reasoning,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from vtcode.store import (
    CompactionRecord,
    LoadedHistory,
    MessageRecord,
    SessionInfo,
    SessionStore,
    load_history,
)
from vtcode.store.history import encode_record, history_log
from vtcode.store.meta import read_info

FIXTURES = Path(__file__).parent / "fixtures"
INTENT = "5f0c9a4e-8a47-4d0e-9d3f-2c1b7e6a9f10"
SUMMARY = "Goal: fix tests/test_parse.py. Done: parse_date accepts dashes, slashes and dots."
STEER = UserMessage(
    content="Also keep the old dotted format working.",
    meta=MessageMeta(intent_id=INTENT, created_at=1767225700.5, turn=2),
)
DONE = AssistantMessage(content="Done: dashes, slashes and dots all parse.")

EXPECTED_RECORDS = [
    MessageRecord(
        seq=1,
        ts=1767225600.0,
        message=SystemMessage(content="You are working in /home/ada/project."),
    ),
    MessageRecord(
        seq=2,
        ts=1767225600.25,
        message=UserMessage(
            content="Fix the failing test in tests/test_parse.py",
            meta=MessageMeta(created_at=1767225600.0, turn=1),
        ),
    ),
    MessageRecord(
        seq=3,
        ts=1767225604.5,
        message=AssistantMessage(
            content="",
            reasoning=(
                Reasoning(text="The test imports parse_date; read it first.", signature="sig-abc123"),
                Reasoning(redacted="cmVkYWN0ZWQgdGhpbmtpbmc="),
                Reasoning(item_id="rs_01", encrypted_content="gAAAAABo-encrypted"),
            ),
            tool_calls=(
                ToolCall(id="call_1", name="read_file", arguments='{"path":"src/parse.py"}'),
                ToolCall(
                    id="call_2",
                    name="exec_command",
                    arguments='{"cmd":"pytest -q tests/test_parse.py"}',
                    item_id="fc_02",
                ),
            ),
            meta=MessageMeta(turn=1),
        ),
    ),
    MessageRecord(
        seq=4,
        ts=1767225604.75,
        message=ToolResultMessage(
            call_id="call_1",
            name="read_file",
            content='def parse_date(text):\n    return datetime.strptime(text, "%Y-%m-%d")\n',
            meta=MessageMeta(turn=1),
        ),
    ),
    MessageRecord(
        seq=5,
        ts=1767225606.0,
        message=ToolResultMessage(
            call_id="call_2",
            name="exec_command",
            content="FAILED tests/test_parse.py::test_slashes - ValueError",
            is_error=True,
            meta=MessageMeta(turn=1),
        ),
    ),
    MessageRecord(
        seq=6,
        ts=1767225610.0,
        message=AssistantMessage(
            content="The parser only accepts dashes; I will accept slashes too.",
            meta=MessageMeta(turn=1),
        ),
    ),
    MessageRecord(seq=7, ts=1767225700.5, message=STEER),
    MessageRecord(seq=8, ts=1767225720.0, message=DONE),
    CompactionRecord(
        seq=9,
        ts=1767225800.0,
        replaced_through_seq=8,
        summary=SUMMARY,
        messages=[
            UserMessage(content=f"Summary of the conversation so far:\n{SUMMARY}"),
            STEER,
            DONE,
        ],
        artifact_path="archive/compaction-0001.jsonl",
    ),
    MessageRecord(
        seq=10,
        ts=1767225900.0,
        message=UserMessage(content="Run the whole suite.", meta=MessageMeta(turn=3)),
    ),
]

EXPECTED_INFO = SessionInfo(
    id="0194f3c2a1b07d3e9f6a5b4c3d2e1f00",
    workspace="/home/ada/project",
    created_at=1767225600.0,
    updated_at=1767225900.0,
    turns=3,
    title="Fix the failing test in tests/test_parse.py",
    model="gpt-5-mini",
    provider="openai",
    pending_intents=1,
)


def test_history_v1_records_decode() -> None:
    loaded = history_log(FIXTURES / "history_v1.jsonl").load()
    assert loaded.records == EXPECTED_RECORDS
    assert loaded.notices == []


def test_history_v1_replays_through_compaction(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "history_v1.jsonl", tmp_path / "history.jsonl")
    assert load_history(tmp_path) == LoadedHistory(
        messages=[
            UserMessage(content=f"Summary of the conversation so far:\n{SUMMARY}"),
            STEER,
            DONE,
            UserMessage(content="Run the whole suite.", meta=MessageMeta(turn=3)),
        ],
        notices=[],
        last_seq=10,
        intent_ids=(INTENT,),
    )


def test_meta_v1_loads() -> None:
    assert read_info(FIXTURES / "meta_v1.json") == EXPECTED_INFO


def test_v1_session_directory_opens_and_accepts_appends(tmp_path: Path) -> None:
    session_dir = tmp_path / "sessions" / EXPECTED_INFO.id
    session_dir.mkdir(parents=True)
    shutil.copy(FIXTURES / "history_v1.jsonl", session_dir / "history.jsonl")
    shutil.copy(FIXTURES / "meta_v1.json", session_dir / "meta.json")
    store = SessionStore(tmp_path, clock=lambda: 1767226000.0, new_id=lambda: "unused")

    with store.open("0194f3") as handle:
        assert handle.info == EXPECTED_INFO
        assert handle.append_messages([UserMessage(content="and the docs")], turn=4) == 11

    history = load_history(session_dir)
    assert history.messages[-1] == UserMessage(content="and the docs")
    assert history.last_seq == 11
    assert read_info(session_dir / "meta.json").turns == 4


def test_record_line_snapshot() -> None:
    """The exact bytes this version writes; a change here is a format change and needs a new fixture."""
    record = MessageRecord(
        seq=7,
        ts=1767225700.5,
        message=UserMessage(content="steer", meta=MessageMeta(intent_id="i-1", turn=2)),
    )
    assert encode_record(record) == (
        b'{"type":"message","schema_version":1,"seq":7,"ts":1767225700.5,'
        b'"message":{"role":"user","content":"steer","meta":{"intent_id":"i-1","turn":2}}}'
    )
