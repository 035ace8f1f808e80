"""Text that every encoder accepts, made from text that may carry file-name bytes (surrogate escapes).

Linux file names are bytes. Python hands undecodable bytes over as lone surrogates (PEP 383,
`surrogateescape`: byte 0xE9 becomes U+DCE9), which keeps them exact inside vtcode, but no UTF-8
encoder (the JSONL store, the event stream, a provider request) accepts a lone surrogate. At that
boundary each escaped byte is written the way bash's `$'...'` quoting and `ls -b` write it (`\\xe9`),
so the name stays readable and exact, and the model can name the file in a command.
"""

from __future__ import annotations

from typing import Any


def printable(text: str) -> str:
    """`text` with lone surrogates replaced: escaped bytes as `\\xNN`, any other one as U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        return text  # the common case: one encode, nothing copied
    out: list[str] = []
    for ch in text:
        if "\udc80" <= ch <= "\udcff":
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif "\ud800" <= ch <= "\udfff":
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def printable_value(value: Any) -> Any:
    """`printable` applied to every string inside nested lists, tuples and dicts (keys included)."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {printable_value(key): printable_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(printable_value(item) for item in value)
    return value
