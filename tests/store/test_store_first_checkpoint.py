"""A new session's first checkpoint: stored with the session, `meta.json` written once, four fsyncs."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from vtcode.protocol.errors import StoreError
from vtcode.protocol.messages import MessageMeta, UserMessage
from vtcode.runtime.stored_history import StoredHistory
from vtcode.store import SessionInfo, SessionStore
from vtcode.store.meta import read_info

PROMPT = UserMessage(content="fix the parser\nplease", meta=MessageMeta(turn=1))


def _store(tmp_path: Path) -> SessionStore:
    return SessionStore(tmp_path / "home", clock=lambda: 1_000.0, new_id=lambda: "unused")


def _history(tmp_path: Path) -> StoredHistory:
    workspace = tmp_path / "project"
    workspace.mkdir()
    return StoredHistory(_store(tmp_path), session_id="s1", workspace=workspace, model="m", provider="p")


def _fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the process's fsyncs (the durable writes a session start costs)."""
    calls: list[int] = []
    real: Callable[[int], None] = os.fsync

    def counted(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counted)
    return calls


def test_the_first_checkpoint_creates_the_session_with_one_meta_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = _history(tmp_path)
    fsyncs = _fsyncs(monkeypatch)

    history.append([PROMPT], turn=1)
    history.close()

    # history.jsonl, meta.json's temp file, the session folder (both entries), the sessions folder.
    assert len(fsyncs) == 4
    directory = tmp_path / "home" / "sessions" / "s1"
    assert read_info(directory / "meta.json") == SessionInfo(
        id="s1",
        workspace=str((tmp_path / "project").resolve()),
        created_at=1_000.0,
        updated_at=1_000.0,
        turns=1,
        title="fix the parser",
        model="m",
        provider="p",
    )
    assert not list(directory.glob(".meta.json.*"))
    with _store(tmp_path).open("s1") as handle:
        loaded = handle.load()
        assert (loaded.messages, loaded.last_seq) == ([PROMPT], 1)
        # The next checkpoint continues the history and the count of turns.
        answer = UserMessage(content="and the tests", meta=MessageMeta(turn=2))
        assert handle.append_messages([answer], turn=2) == 2
    assert read_info(directory / "meta.json").turns == 2


def test_a_session_killed_before_its_meta_is_written_is_not_listed(tmp_path: Path) -> None:
    # What a kill between the history's fsync and meta.json's rename leaves behind.
    store = _store(tmp_path)
    half = store.sessions_dir / "half"
    half.mkdir(parents=True)
    (half / "history.jsonl").write_text('{"type":"message"}\n')

    assert store.scan().sessions == []
    with pytest.raises(StoreError):
        store.open("half")
