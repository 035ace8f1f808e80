"""A `/name args` line as typed: the first step of the TUI's commands and of custom commands and skills."""

from __future__ import annotations


def split_slash(text: str) -> tuple[str, str] | None:
    """The name and the (stripped) arguments of `/name args`; None when `text` does not start with one
    slash (`//x` is text that starts with `/x`)."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    name, _, args = stripped[1:].partition(" ")
    return name, args.strip()
