"""Repeated reads of the same file range, summarized once (reference 5.6, local summaries only).

A session that re-reads a file ten times would feed the summarizer ten copies; only the newest read of
a (path, offset, limit) says what the file holds now. Older results become a small placeholder. The
verbatim tail is never changed; its reads count as the newest.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence

import msgspec

from vtcode.protocol.messages import AssistantMessage, Message, ToolResultMessage

READ_TOOL = "read_file"
Key = tuple[str, int, int | None]


def _read_keys(messages: Sequence[Message]) -> dict[str, Key]:
    """Call id -> read key, for every read_file call with usable arguments."""
    keys: dict[str, Key] = {}
    for message in messages:
        if not isinstance(message, AssistantMessage):
            continue
        for call in message.tool_calls:
            if call.name != READ_TOOL:
                continue
            try:
                args = json.loads(call.arguments or "{}")
            except ValueError:
                continue
            if not isinstance(args, dict):
                continue
            path, offset, limit = args.get("path"), args.get("offset") or 1, args.get("limit")
            if isinstance(path, str) and isinstance(offset, int):
                norm = posixpath.normpath(path.replace("\\", "/"))
                keys[call.id] = (norm, offset, limit if isinstance(limit, int) else None)
    return keys


def placeholder(key: Key) -> str:
    """What an older duplicate read's content becomes."""
    path, offset, limit = key
    return json.dumps(
        {
            "deduped_read": True,
            "note": "an identical later read of this file range is kept; this older copy was removed",
            "path": path,
            "offset": offset,
            "limit": limit,
        }
    )


def dedup_reads(prefix: Sequence[Message], tail: Sequence[Message] = ()) -> list[Message]:
    """`prefix` with every successful read_file result replaced when a later identical read exists."""
    keys = _read_keys([*prefix, *tail])
    seen: set[Key] = set()
    for message in tail:
        if isinstance(message, ToolResultMessage) and not message.is_error and message.call_id in keys:
            seen.add(keys[message.call_id])
    out: list[Message] = []
    for message in reversed(prefix):
        key = keys.get(message.call_id) if isinstance(message, ToolResultMessage) else None
        if isinstance(message, ToolResultMessage) and key is not None and not message.is_error:
            if key in seen:
                message = msgspec.structs.replace(message, content=placeholder(key))  # noqa: PLW2901
            seen.add(key)
        out.append(message)
    out.reverse()
    return out
