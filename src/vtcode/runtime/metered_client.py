"""A model client that records every completed call in the session's usage ledger, tagged by source.

Each caller holds its own `MeteredClient` over the session's one client: the turn loop's says `main`,
the compactor's says `compaction`, a subagent's says `subagent:<id>` (`UsageLedger` lists them). The
provider adapters stay unaware of accounting; usage comes from the `Completed` event they end with.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable

from vtcode.core.usage_ledger import UsageLedger
from vtcode.protocol.messages import Usage
from vtcode.protocol.model import Completed, ModelRequest, StreamEvent
from vtcode.providers.base import (
    InlineCompaction,
    InlineCompactionReply,
    ModelClient,
    NativeCompaction,
    NativeCompactionReply,
)


class MeteredClient:
    """`inner` with each call's usage and API time recorded under `source`."""

    def __init__(
        self,
        inner: ModelClient,
        ledger: UsageLedger,
        source: str,
        *,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.inner = inner
        self.ledger = ledger
        self.source = source
        self._monotonic = monotonic

    def tagged(self, source: str) -> MeteredClient:
        """The same client and ledger, recording under another source (a subagent's own client)."""
        return MeteredClient(self.inner, self.ledger, source, monotonic=self._monotonic)

    @property
    def provider(self) -> str:
        """The inner client's provider name."""
        return self.inner.provider

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """The inner stream, unchanged; its `Completed` usage is recorded before it is passed on."""
        started = self._monotonic()
        async for event in self.inner.stream(request):
            if isinstance(event, Completed):
                self._record(request, event.usage, started)
            yield event

    async def aclose(self) -> None:
        """Close the inner client."""
        await self.inner.aclose()

    # The compaction protocols are forwarded so `isinstance` checks of callers keep their meaning.

    @property
    def native_compaction(self) -> bool:
        """Whether the inner client serves a compaction endpoint."""
        inner = self.inner
        return isinstance(inner, NativeCompaction) and inner.native_compaction

    async def compact(self, request: ModelRequest) -> NativeCompactionReply:
        """The inner client's compaction endpoint; the usage its reply reports is recorded."""
        inner = self.inner
        assert isinstance(inner, NativeCompaction)
        started = self._monotonic()
        reply = await inner.compact(request)
        if reply.usage is not None:
            self._record(request, reply.usage, started)
        return reply

    @property
    def inline_compaction(self) -> bool:
        """Whether the inner client serves the inline compaction edit."""
        inner = self.inner
        return isinstance(inner, InlineCompaction) and inner.inline_compaction

    async def compact_inline(
        self, request: ModelRequest, *, trigger_tokens: int, instructions: str | None = None
    ) -> InlineCompactionReply:
        """The inner client's inline compaction; the reply's usage is recorded."""
        inner = self.inner
        assert isinstance(inner, InlineCompaction)
        started = self._monotonic()
        reply = await inner.compact_inline(request, trigger_tokens=trigger_tokens, instructions=instructions)
        if reply.usage is not None:
            self._record(request, reply.usage, started)
        return reply

    def _record(self, request: ModelRequest, usage: Usage, started: float) -> None:
        """The usage of the call of `request` that began at `started`, into the ledger under `source`."""
        self.ledger.record(self.source, self.provider, request.model, usage, self._monotonic() - started)
