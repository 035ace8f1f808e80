"""Composition of the static system prompt (pure): base layer, appends, and the runtime guidance."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import msgspec

from vtcode.protocol.model import ToolSpec


def compose_static(
    base: str, guidance: str, *, override: str | None = None, appends: Sequence[str] = ()
) -> str:
    """The static prompt: the profile (or a non-blank `system.md` override), appends, then guidance.

    The guidance is reattached after every layer is resolved, exactly once, so an override can never drop
    it and one that already contains it does not duplicate it.
    """
    layer = override if override is not None and override.strip() else base
    parts = [layer.strip(), *(a.strip() for a in appends if a.strip())]
    text = "\n\n".join(parts)
    if guidance in text:
        text = text.replace(guidance, "").strip()
        text = "\n\n".join(p for p in text.split("\n\n") if p.strip())
    return f"{text}\n\n{guidance}" if text else guidance


def estimate_tokens_bytes(text: str) -> int:
    """The original's rough estimate: UTF-8 bytes / 4, rounded up."""
    return -(-len(text.encode("utf-8")) // 4)


def static_cache_key(static: str, tools: Sequence[ToolSpec]) -> str:
    """A key of everything in the cached prefix; equal keys mean byte-identical prefixes."""
    digest = hashlib.sha256(static.encode("utf-8"))
    digest.update(b"\0")
    digest.update(msgspec.json.encode(list(tools)))
    return digest.hexdigest()[:16]
