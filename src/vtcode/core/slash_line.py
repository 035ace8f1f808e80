"""A `/name args` line as typed: the first step of the TUI's commands and of custom commands and skills."""

from __future__ import annotations


def split_slash(text: str) -> tuple[str, str] | None:
    """The name and the (stripped) arguments of `/name args`; None when `text` does not start with one
    slash (`//x` is text that starts with `/x`).

    People type `/ help` (a space after the slash) and put arguments on the next line (`/review` then
    Ctrl+J): the name is the first word after the slash, ended by any whitespace.
    """
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    words = stripped[1:].split(maxsplit=1)
    if not words:
        return "", ""
    return words[0], words[1].strip() if len(words) > 1 else ""
