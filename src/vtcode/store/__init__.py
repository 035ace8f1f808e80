"""Durable session state: atomic small files, append-only JSONL logs with fsync, session directories."""

from vtcode.store.atomic import atomic_write
from vtcode.store.history import (
    CompactionRecord,
    HistoryRecord,
    LoadedHistory,
    MessageRecord,
    load_history,
)
from vtcode.store.jsonl import JsonlLoad, JsonlLog
from vtcode.store.meta import SessionInfo, make_title
from vtcode.store.session import SessionHandle, SessionStore

__all__ = [
    "CompactionRecord",
    "HistoryRecord",
    "JsonlLoad",
    "JsonlLog",
    "LoadedHistory",
    "MessageRecord",
    "SessionHandle",
    "SessionInfo",
    "SessionStore",
    "atomic_write",
    "load_history",
    "make_title",
]
