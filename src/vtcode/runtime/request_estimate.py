"""Our estimate of the fixed part of a request (system prompt, tool schemas), for compaction decisions.

The BPE tables take ~0.2 s to load, so the counter loads on the first count; the system prompt and tool
schemas repeat on every request, so each distinct text is counted once.
"""

from __future__ import annotations

import msgspec

from vtcode.core.tokens import CachedCounter, TextCounter, request_tokens
from vtcode.protocol.model import ModelRequest
from vtcode.tokens.encoding import text_counter

_COUNT_CACHE_ENTRIES = 64
_schema_encoder = msgspec.json.Encoder()


class LazyCounter:
    """`text_counter()`, loaded on the first count."""

    def __init__(self) -> None:
        self._counter: TextCounter | None = None

    def __call__(self, text: str) -> int:
        if self._counter is None:
            self._counter = text_counter()
        return self._counter(text)


class FixedTokens:
    """The system prompt and tool schemas of a request, in estimated tokens."""

    def __init__(self, count: TextCounter) -> None:
        self._cached_count = CachedCounter(count, _COUNT_CACHE_ENTRIES)

    def __call__(self, request: ModelRequest | None) -> int:
        """The fixed part of `request` (0 without one)."""
        if request is None:
            return 0
        return request_tokens(
            system_prompt=request.system.joined(),
            tool_schemas_json=[_schema_encoder.encode(spec).decode() for spec in request.tools],
            message_estimates=(),
            count=self._cached_count,
        )
