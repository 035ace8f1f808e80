"""How a session's last turn ended, read from the end of its event log."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from vtcode.store.status import last_turn_status


def _events(*events: Mapping[str, object]) -> bytes:
    return b"".join(json.dumps(event).encode() + b"\n" for event in events)


STARTED: Mapping[str, object] = {"type": "turn.started"}
BIG_ITEM: Mapping[str, object] = {"type": "item.completed", "item": {"text": "turn.completed " * 20_000}}


@pytest.mark.parametrize(
    ("log", "status"),
    [
        (_events(STARTED, BIG_ITEM, {"type": "turn.completed"}), "completed"),
        (_events(STARTED, {"type": "turn.failed", "kind": "server", "message": "x"}), "failed"),
        (_events(STARTED, {"type": "turn.failed", "kind": "interrupted"}), "interrupted"),
        (_events({"type": "turn.completed"}, STARTED, BIG_ITEM, BIG_ITEM), "unfinished"),
        (_events({"type": "thread.started"}), "new"),
        (b"", "new"),
        (_events(STARTED, {"type": "turn.completed"}) + b'{"type":"turn.fai', "completed"),
    ],
    ids=["completed", "failed", "interrupted", "unfinished", "no-turn", "empty", "torn-tail"],
)
def test_last_turn_status(tmp_path: Path, log: bytes, status: str) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(log)
    assert last_turn_status(path) == status


def test_a_missing_log_is_new(tmp_path: Path) -> None:
    assert last_turn_status(tmp_path / "events.jsonl") == "new"
