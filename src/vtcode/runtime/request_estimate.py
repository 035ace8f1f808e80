"""Our estimate of the fixed part of a request (system prompt, tool schemas), for compaction decisions.

The BPE tables take ~0.2 s to load, so the counter loads on the first count; the system prompt and tool
schemas repeat on every request, so each distinct text is counted once.
"""

from __future__ import annotations

import msgspec

from vtcode.core.tokens import TextCounter, request_tokens
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
        self._count = count
        self._counts: dict[str, int] = {}

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

    def _cached_count(self, text: str) -> int:
        cached = self._counts.get(text)
        if cached is None:
            if len(self._counts) >= _COUNT_CACHE_ENTRIES:
                self._counts.clear()
            cached = self._counts[text] = self._count(text)
        return cached
