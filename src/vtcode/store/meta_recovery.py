"""A session's `meta.json` rebuilt from its own logs when the file is missing or damaged.

`meta.json` is only a summary; `history.jsonl` and `events.jsonl` hold what it says (the workspace in
`thread.started`, the title in the first prompt, the turns in each message's meta). Rebuilding it keeps
a session whose summary was torn, or removed as the error hint advised, listed and resumable instead of
vanishing from `vtcode sessions` while its history is still on disk.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from vtcode.protocol.errors import StoreError
from vtcode.store.meta import META_FILE, SessionInfo, make_title, read_info

_HISTORY_FILE = "history.jsonl"
_EVENTS_FILE = "events.jsonl"


def session_info(directory: Path) -> tuple[SessionInfo, str | None]:
    """The session's `meta.json`, or, when that is missing or damaged, the summary its logs rebuild
    and a sentence saying so."""
    try:
        return read_info(directory / META_FILE), None
    except StoreError as err:
        damaged = isinstance(err.__cause__, msgspec.DecodeError | FileNotFoundError)
        recovered = recover_info(directory) if damaged else None
        if recovered is None:
            raise
        reason = "is missing" if isinstance(err.__cause__, FileNotFoundError) else "is damaged"
        note = (
            f"session {directory.name}: {directory / META_FILE} {reason}; its summary was rebuilt from "
            "the session's logs (rewritten at its next turn)"
        )
        return recovered, note


def recover_info(directory: Path) -> SessionInfo | None:
    """The summary of the session in `directory` rebuilt from its logs; None when they do not say."""
    workspace = created = None
    model = provider = ""
    for event in _records(directory / _EVENTS_FILE):
        if event.get("type") == "thread.started" and workspace is None:
            workspace, created = event.get("workspace"), event.get("ts")
        elif event.get("type") == "usage":
            for row in event.get("rows") or ():
                if isinstance(row, dict) and row.get("source") == "main":
                    model, provider = str(row.get("model", "")), str(row.get("provider", ""))
    if not isinstance(workspace, str) or not workspace:
        return None
    title, turns = _title_and_turns(directory / _HISTORY_FILE)
    try:
        updated = max(p.stat().st_mtime for p in (directory / _HISTORY_FILE, directory / _EVENTS_FILE))
    except OSError:
        updated = 0.0
    created_at = float(created) if isinstance(created, int | float) else updated
    return SessionInfo(
        id=directory.name,
        workspace=workspace,
        created_at=created_at,
        updated_at=max(updated, created_at),
        turns=turns,
        title=title,
        model=model,
        provider=provider,
    )


def _title_and_turns(history: Path) -> tuple[str, int]:
    """The first prompt's title and the highest turn number the history's messages carry."""
    title, turns = "", 0
    for record in _records(history):
        message = record.get("message")
        if not isinstance(message, dict):
            continue
        meta = message.get("meta")
        if not isinstance(meta, dict):
            meta = {}
        turn = meta.get("turn")
        if isinstance(turn, int):
            turns = max(turns, turn)
        content = message.get("content")
        if not title and message.get("role") == "user" and not meta.get("kind") and isinstance(content, str):
            title = make_title(content)
    return title, turns


def _records(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSONL file, skipping lines that are not (a torn or garbled line)."""
    try:
        with path.open("rb") as file:
            for line in file:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if isinstance(record, dict):
                    yield record
    except OSError:
        return
