"""`envelope.json`: atomic writes, legacy files with missing fields, clear errors for damaged ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vtcode.core.compaction.envelope import Envelope, EnvelopeUpdate, PendingIntent, merge
from vtcode.protocol.errors import StoreError
from vtcode.store.envelope import ENVELOPE_FILE, read_envelope, write_envelope


def test_an_envelope_round_trips_and_leaves_no_temp_file(tmp_path: Path) -> None:
    assert read_envelope(tmp_path) is None
    envelope = merge(
        None,
        EnvelopeUpdate(summary="s", pending_intents=(PendingIntent(id="i1", text="finish"),)),
        session_id="abc",
        now="2026-12-01T14:00:00Z",
    )
    write_envelope(tmp_path, envelope)
    assert read_envelope(tmp_path) == envelope
    assert [p.name for p in tmp_path.iterdir()] == [ENVELOPE_FILE]
    assert json.loads((tmp_path / ENVELOPE_FILE).read_text())["schema_version"] == 3


def test_a_legacy_envelope_loads_with_defaults(tmp_path: Path) -> None:
    (tmp_path / ENVELOPE_FILE).write_text(json.dumps({"session_id": "abc", "summary": "old"}))
    assert read_envelope(tmp_path) == Envelope(session_id="abc", schema_version=3, summary="old")
    (tmp_path / ENVELOPE_FILE).write_text(json.dumps({"summary": "x", "schema_version": None}))
    legacy = read_envelope(tmp_path)
    assert legacy is not None
    assert (legacy.schema_version, legacy.pending_intents, legacy.applied_intent_ids) == (None, (), ())


def test_damaged_or_newer_envelopes_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / ENVELOPE_FILE).write_text('{"summary": 3}')
    with pytest.raises(StoreError, match=r"envelope\.json"):
        read_envelope(tmp_path)
    (tmp_path / ENVELOPE_FILE).write_text('{"schema_version": 9}')
    with pytest.raises(StoreError, match="schema_version 9"):
        read_envelope(tmp_path)
