"""The records of `history.jsonl` and their replay into the conversation a session resumes with."""

from __future__ import annotations

from pathlib import Path

import msgspec

from vtcode.protocol.errors import StoreError
from vtcode.protocol.messages import Message
from vtcode.store.errors import newer_format_error
from vtcode.store.jsonl import NEWER_LOG_HINT, JsonlLog

HISTORY_SCHEMA_VERSION = 1
HISTORY_FILE = "history.jsonl"


class _Record(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """What every history line carries: its format version, sequence number and time."""

    schema_version: int = HISTORY_SCHEMA_VERSION
    seq: int
    ts: float


class MessageRecord(_Record, frozen=True, kw_only=True, tag="message"):
    """One message appended to the conversation at a checkpoint."""

    message: Message


class CompactionRecord(_Record, frozen=True, kw_only=True, tag="compaction"):
    """A compaction: `messages` (summary and kept tail) replace every message up to `replaced_through_seq`.

    `artifact_path` is relative to the session directory (`archive/...`) so a session folder can move.
    """

    replaced_through_seq: int
    summary: str
    messages: list[Message]
    artifact_path: str | None = None


HistoryRecord = MessageRecord | CompactionRecord

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(HistoryRecord)


class LoadedHistory(msgspec.Struct, frozen=True):
    """A replayed history: the conversation as of the last complete record.

    `intent_ids` lists every steering intent id tagged in any record, including messages a compaction
    replaced, so recovery can tell applied intents from pending ones (SPEC section 7).
    """

    messages: list[Message]
    notices: list[str]
    last_seq: int
    intent_ids: tuple[str, ...] = msgspec.field(default=())


def encode_record(record: HistoryRecord) -> bytes:
    """One history line, without the newline."""
    return _encoder.encode(record)


def decode_record(line: bytes) -> HistoryRecord:
    """Parse one history line; raises `msgspec.DecodeError`."""
    return _decoder.decode(line)


def history_log(path: Path) -> JsonlLog[HistoryRecord]:
    """The JSONL log of history records at `path`."""
    return JsonlLog(path, encode=encode_record, decode=decode_record, newest=HISTORY_SCHEMA_VERSION)


def load_history(session_dir: Path) -> LoadedHistory:
    """Replay `history.jsonl` of a session directory; a missing file is an empty history."""
    path = session_dir / HISTORY_FILE
    loaded = history_log(path).load()
    return replay(loaded.records, loaded.notices, path)


def replay(records: list[HistoryRecord], notices: list[str], path: Path) -> LoadedHistory:
    """Apply records in order; `path` only names the file in errors (record i is on line i + 1)."""
    # Each entry keeps the seq of its MessageRecord; messages a compaction brought in have none.
    entries: list[tuple[int | None, Message]] = []
    intent_ids: dict[str, None] = {}
    last_seq = 0
    for line, record in enumerate(records, start=1):
        _check_order(record, last_seq, path, line)
        match record:
            case MessageRecord(message=message):
                entries.append((record.seq, message))
                _collect_intent(message, intent_ids)
            case CompactionRecord(replaced_through_seq=through, messages=messages):
                replaced: list[tuple[int | None, Message]] = [(None, m) for m in messages]
                entries = replaced + [(s, m) for s, m in entries if s is not None and s > through]
                for message in messages:
                    _collect_intent(message, intent_ids)
        last_seq = record.seq
    return LoadedHistory(
        messages=[message for _, message in entries],
        notices=notices,
        last_seq=last_seq,
        intent_ids=tuple(intent_ids),
    )


def _check_order(record: HistoryRecord, last_seq: int, path: Path, line: int) -> None:
    if record.schema_version > HISTORY_SCHEMA_VERSION:
        raise newer_format_error(
            f"{path}:{line}",
            "record",
            record.schema_version,
            HISTORY_SCHEMA_VERSION,
            hint=NEWER_LOG_HINT,
        )
    if record.seq <= last_seq:
        raise StoreError(
            f"{path}:{line}: record seq {record.seq} does not follow seq {last_seq}",
            hint="the session log was written by two processes or edited by hand; "
            "fix that line or start a new session",
        )
    if isinstance(record, CompactionRecord) and record.replaced_through_seq > last_seq:
        raise StoreError(
            f"{path}:{line}: compaction replaces messages through seq "
            f"{record.replaced_through_seq}, but the log only reaches seq {last_seq}",
            hint="the session log is damaged; fix that line or start a new session",
        )


def _collect_intent(message: Message, intent_ids: dict[str, None]) -> None:
    if message.meta.intent_id is not None:
        intent_ids[message.meta.intent_id] = None
