"""The history copy of a tool call's arguments: bounded, so one huge call cannot make a session unusable.

A model that writes a 3 MB file in one `write_file` call has its arguments replayed in every later
request of the session; no compaction can shrink them (the call is the newest thing in the history),
so the session could never continue. The tool runs with the arguments whole; the history keeps a
preview of each long string value (its head and tail) and says where the whole arguments were saved.
"""

from __future__ import annotations

import json
from typing import Any

# Arguments up to this many characters are kept whole (a large patch or file still fits).
ARGUMENT_LIMIT = 64 * 1024
_HEAD_CHARS = 2048
_TAIL_CHARS = 512


def bounded_arguments(arguments: str, reference: str | None, *, limit: int = ARGUMENT_LIMIT) -> str | None:
    """The arguments the history keeps when `arguments` is longer than `limit`; None when it fits.

    `reference` is where the whole arguments were saved (a workspace path), or None when they could
    not be. The result is a JSON object, as every provider requires of tool-call arguments.
    """
    if len(arguments) <= limit:
        return None
    where = f"; the whole arguments are saved in {reference}" if reference else ""
    try:
        value: Any = json.loads(arguments)
    except ValueError:
        value = None
    if isinstance(value, dict):
        shortened = {key: _preview(item, where) for key, item in value.items()}
        text = json.dumps(shortened, ensure_ascii=False)
        if len(text) <= limit:
            return text
    note = f"[{len(arguments):,} characters of arguments omitted from the history{where}]"
    return json.dumps({"omitted_arguments": note}, ensure_ascii=False)


def _preview(value: Any, where: str) -> Any:
    if not isinstance(value, str) or len(value) <= _HEAD_CHARS + _TAIL_CHARS:
        return value
    omitted = len(value) - _HEAD_CHARS - _TAIL_CHARS
    marker = f"[... {omitted:,} characters omitted from the history; the tool received them whole{where} ...]"
    return f"{value[:_HEAD_CHARS]}\n{marker}\n{value[-_TAIL_CHARS:]}"
