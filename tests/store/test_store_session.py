"""SessionStore and SessionHandle: create, checkpoint, reload, find by prefix or workspace, list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vtcode.protocol.errors import StoreError
from vtcode.protocol.events import Event, ItemCompleted, ReasoningItem, TurnStarted, decode_event
from vtcode.protocol.messages import (
    AssistantMessage,
    MessageMeta,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from vtcode.store import LoadedHistory, SessionInfo, SessionStore, make_title
from vtcode.store.meta import read_info


class FakeClock:
    """A clock tests move by hand."""

    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class FakeIds:
    """Hands out the given ids in order."""

    def __init__(self, *ids: str) -> None:
        self._ids = list(ids)

    def __call__(self) -> str:
        return self._ids.pop(0)


USER = UserMessage(content="list the files", meta=MessageMeta(turn=1))
CALL = AssistantMessage(
    tool_calls=(ToolCall(id="c1", name="list_files", arguments="{}"),), meta=MessageMeta(turn=1)
)
RESULT = ToolResultMessage(call_id="c1", name="list_files", content="a.py", meta=MessageMeta(turn=1))
ANSWER = AssistantMessage(content="One file: a.py", meta=MessageMeta(turn=1))


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


def make_store(tmp_path: Path, clock: FakeClock, *ids: str) -> SessionStore:
    return SessionStore(tmp_path / "home", clock=clock, new_id=FakeIds(*ids))


def test_create_writes_the_session_directory_and_meta(tmp_path: Path, workspace: Path) -> None:
    store = make_store(tmp_path, FakeClock(1_000.0), "s1")

    with store.create(workspace, "Fix the bug\nin parse.py", model="m", provider="p") as handle:
        expected = SessionInfo(
            id="s1",
            workspace=str(workspace.resolve()),
            created_at=1_000.0,
            updated_at=1_000.0,
            title="Fix the bug",
            model="m",
            provider="p",
        )
        assert (handle.id, handle.dir, handle.info) == ("s1", tmp_path / "home/sessions/s1", expected)
        assert handle.archive_dir == handle.dir / "archive"
        assert read_info(handle.dir / "meta.json") == expected
        assert json.loads((handle.dir / "meta.json").read_bytes())["schema_version"] == 1
        assert handle.load() == LoadedHistory(messages=[], notices=[], last_seq=0)


def test_checkpoint_then_reload(tmp_path: Path, workspace: Path) -> None:
    clock = FakeClock(1_000.0)
    store = make_store(tmp_path, clock, "s1")
    with store.create(workspace, "list the files") as handle:
        clock.now = 1_010.0
        assert handle.append_messages([USER, CALL], turn=1) == 2
        clock.now = 1_020.0
        assert handle.append_messages([RESULT, ANSWER], turn=1) == 4

    reopened = make_store(tmp_path, clock).open("s1")
    assert reopened.load() == LoadedHistory(messages=[USER, CALL, RESULT, ANSWER], notices=[], last_seq=4)
    assert (reopened.info.turns, reopened.info.updated_at) == (1, 1_020.0)
    clock.now = 1_030.0
    assert reopened.append_messages([UserMessage(content="again")], turn=2) == 5
    reopened.close()
    assert read_info(reopened.dir / "meta.json").turns == 2
    assert reopened.load().messages == [USER, CALL, RESULT, ANSWER, UserMessage(content="again")]


def test_seq_numbers_continue_across_handles(tmp_path: Path, workspace: Path) -> None:
    clock = FakeClock()
    store = make_store(tmp_path, clock, "s1")
    with store.create(workspace, "t") as handle:
        handle.append_messages([USER], turn=1)
    with store.open("s1") as handle:
        assert handle.append_messages([ANSWER], turn=1) == 2
        assert handle.append_messages([], turn=1) == 2


def test_compaction_checkpoint_replaces_the_history(tmp_path: Path, workspace: Path) -> None:
    store = make_store(tmp_path, FakeClock(), "s1")
    summary = UserMessage(content="Summary: listed files")
    with store.create(workspace, "t") as handle:
        handle.append_messages([USER, CALL, RESULT, ANSWER], turn=1)
        record = handle.append_compaction(
            summary="listed files", messages=[summary, ANSWER], artifact_path="archive/c1.jsonl"
        )
        handle.append_messages([UserMessage(content="next")], turn=2)

        assert (record.seq, record.replaced_through_seq) == (5, 4)
        assert handle.load() == LoadedHistory(
            messages=[summary, ANSWER, UserMessage(content="next")], notices=[], last_seq=6
        )


def test_torn_history_tail_is_reported_and_the_next_checkpoint_is_clean(
    tmp_path: Path, workspace: Path
) -> None:
    store = make_store(tmp_path, FakeClock(), "s1")
    with store.create(workspace, "t") as handle:
        handle.append_messages([USER, CALL], turn=1)
    torn = b'{"type":"message","schema_version":1,"seq":3,"ts":1.0,"mess'
    with handle.history_path.open("ab") as f:
        f.write(torn)

    with store.open("s1") as handle:
        loaded = handle.load()
        assert (loaded.messages, loaded.last_seq) == ([USER, CALL], 2)
        assert loaded.notices == [
            f"{handle.history_path}: ignored an incomplete last line (line 3, {len(torn)} bytes) "
            "left by an interrupted write"
        ]
        assert handle.append_messages([RESULT], turn=1) == 3
    assert handle.load() == LoadedHistory(messages=[USER, CALL, RESULT], notices=[], last_seq=3)


def test_events_are_appended_as_json_lines(tmp_path: Path, workspace: Path) -> None:
    store = make_store(tmp_path, FakeClock(), "s1")
    events: list[Event] = [TurnStarted(), ItemCompleted(item=ReasoningItem(id="r1", text="thinking"))]
    with store.create(workspace, "t") as handle:
        for event in events:
            handle.append_event(event)

    lines = handle.events_path.read_bytes().splitlines()
    assert [decode_event(line) for line in lines] == events


def test_update_info_rewrites_meta(tmp_path: Path, workspace: Path) -> None:
    store = make_store(tmp_path, FakeClock(), "s1")
    with store.create(workspace, "t") as handle:
        info = handle.update_info(model="gpt", pending_intents=2)

    assert read_info(handle.dir / "meta.json") == info
    assert (info.model, info.provider, info.pending_intents) == ("gpt", "", 2)


def test_open_unknown_id_points_to_sessions_list(tmp_path: Path) -> None:
    store = make_store(tmp_path, FakeClock())

    with pytest.raises(StoreError) as caught:
        store.open("nope")

    assert caught.value.user_text() == (
        "no stored session has the id 'nope'\nhint: run `vtcode sessions list` to see the stored sessions"
    )


@pytest.mark.parametrize("bad", ["", "../s1", "/etc", "."])
def test_open_never_leaves_the_sessions_directory(tmp_path: Path, workspace: Path, bad: str) -> None:
    store = make_store(tmp_path, FakeClock(), "s1")
    store.create(workspace, "t").close()

    with pytest.raises(StoreError, match="no stored session has the id"):
        store.open(bad)


def test_open_accepts_a_unique_prefix(tmp_path: Path, workspace: Path) -> None:
    store = make_store(tmp_path, FakeClock(), "abc123", "abd456", "ab")
    for title in ("one", "two", "three"):
        store.create(workspace, title).close()

    assert store.open("abc").id == "abc123"
    assert store.open("abd4").id == "abd456"
    assert store.open("ab").id == "ab"  # an exact id wins over being a prefix of others
    with pytest.raises(StoreError) as caught:
        store.resolve_id("a")
    assert caught.value.user_text() == (
        "'a' is the start of 3 session ids: ab, abc123, abd456\n"
        "hint: give more characters of the id; `vtcode sessions list` shows them"
    )


def test_latest_for_workspace_compares_real_paths(tmp_path: Path, workspace: Path) -> None:
    clock = FakeClock(1_000.0)
    store = make_store(tmp_path, clock, "old", "other", "new")
    other = tmp_path / "other"
    other.mkdir()
    link = tmp_path / "link"
    link.symlink_to(workspace)

    old = store.create(workspace, "t")
    clock.now = 1_001.0
    store.create(other, "t").close()
    clock.now = 1_002.0
    store.create(link, "t").close()
    assert store.latest_for_workspace(workspace) == "new"

    clock.now = 1_003.0
    old.append_messages([USER], turn=1)
    old.close()
    assert store.latest_for_workspace(link) == "old"
    assert store.latest_for_workspace(other) == "other"
    assert store.latest_for_workspace(tmp_path) is None


def test_list_is_newest_first_and_skips_unreadable_sessions(tmp_path: Path, workspace: Path) -> None:
    clock = FakeClock(1_000.0)
    store = make_store(tmp_path, clock, "a", "b", "c")
    for now in (1_000.0, 1_002.0, 1_001.0):
        clock.now = now
        store.create(workspace, "t").close()
    (store.sessions_dir / "c" / "meta.json").write_text("{")
    (store.sessions_dir / "half-created").mkdir()

    assert [info.id for info in store.list()] == ["b", "a"]
    listing = store.scan()
    assert [info.id for info in listing.sessions] == ["b", "a"]
    meta = store.sessions_dir / "c" / "meta.json"
    assert listing.skipped == [
        f"session c is skipped: {meta}: invalid session metadata: Input data was truncated "
        "(fix or remove that file; the session's history.jsonl is not affected)"
    ]


def test_empty_home_lists_nothing(tmp_path: Path) -> None:
    store = make_store(tmp_path, FakeClock())

    assert (store.list(), store.latest_for_workspace(tmp_path)) == ([], None)


def test_meta_from_a_newer_version_is_refused(tmp_path: Path, workspace: Path) -> None:
    store = make_store(tmp_path, FakeClock(), "s1")
    store.create(workspace, "t").close()
    meta = store.sessions_dir / "s1" / "meta.json"
    meta.write_text(meta.read_text().replace('"schema_version":1', '"schema_version":2'))

    with pytest.raises(StoreError, match="session metadata has schema_version 2, this vtcode reads up to 1"):
        store.open("s1")


def test_history_written_by_two_processes_is_refused(tmp_path: Path, workspace: Path) -> None:
    store = make_store(tmp_path, FakeClock(), "s1")
    with store.create(workspace, "t") as handle:
        handle.append_messages([USER, ANSWER], turn=1)
    lines = handle.history_path.read_bytes().splitlines(keepends=True)
    handle.history_path.write_bytes(lines[0] + lines[1] + lines[1])

    with pytest.raises(StoreError) as caught:
        handle.load()
    assert caught.value.message == f"{handle.history_path}:3: record seq 2 does not follow seq 2"


def test_unusable_generated_id_is_a_bug(tmp_path: Path, workspace: Path) -> None:
    store = make_store(tmp_path, FakeClock(), "../escape")

    with pytest.raises(ValueError, match="unusable id"):
        store.create(workspace, "t")


def test_repeated_id_is_a_store_error(tmp_path: Path, workspace: Path) -> None:
    store = make_store(tmp_path, FakeClock(), "s1", "s1")
    store.create(workspace, "t").close()

    with pytest.raises(StoreError, match="already exists"):
        store.create(workspace, "t")


@pytest.mark.parametrize(
    ("prompt", "title"),
    [
        ("Fix the bug\nand add a test", "Fix the bug"),
        ("\n\n   \n  indented   first\tline  \nsecond", "indented first line"),
        ("x" * 80, "x" * 80),
        ("y" * 81, "y" * 79 + "…"),
        ("", ""),
    ],
)
def test_title_is_the_first_line_of_the_prompt(prompt: str, title: str) -> None:
    assert make_title(prompt) == title
