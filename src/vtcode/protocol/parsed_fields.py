"""Parsed forms of the JSON strings inside tool items (`arguments_json`, `result_json`) for script readers.

The session's events keep only the strings (events.jsonl would otherwise hold every patch, file body
and command output twice); the `exec --json` writer and the SDK add the parsed forms on the way out, so
a script reads `item.arguments_json.path` instead of decoding JSON inside JSON.
"""

from __future__ import annotations

from typing import Any

import msgspec

from vtcode.protocol.events import (
    CommandExecutionItem,
    Event,
    Item,
    ItemCompleted,
    ItemStarted,
    ItemUpdated,
    ToolCallItem,
)


def _structured(text: str | None) -> dict[str, Any] | list[Any] | None:
    """`text` parsed when it is a JSON object or array; None otherwise (a bare `1` or `"x"` is text)."""
    if not text or text.lstrip()[:1] not in ("{", "["):
        return None
    try:
        value = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return None
    return value if isinstance(value, dict | list) else None


def with_parsed_item(item: Item) -> Item:
    """The item with its parsed fields filled (the same item when it has none)."""
    match item:
        case ToolCallItem():
            arguments = _structured(item.arguments)
            return msgspec.structs.replace(
                item,
                arguments_json=arguments if isinstance(arguments, dict) else None,
                result_json=_structured(item.result),
            )
        case CommandExecutionItem():
            return msgspec.structs.replace(item, result_json=_structured(item.result))
        case _:
            return item


def with_parsed_json(event: Event) -> Event:
    """`event` as `exec --json` prints it: tool items carry their arguments and result parsed too."""
    # A tuple, not `A | B | C`: the union would be built again on every event of the stream.
    if isinstance(event, _ITEM_EVENTS) and event.item is not None:
        item = with_parsed_item(event.item)
        return event if item is event.item else msgspec.structs.replace(event, item=item)
    return event


_ITEM_EVENTS = (ItemStarted, ItemUpdated, ItemCompleted)
