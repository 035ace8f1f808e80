"""The Anthropic Messages API client: one streaming POST per attempt, retried by the shared loop."""

from __future__ import annotations

from collections.abc import AsyncIterator

from vtcode.protocol.model import ModelRequest, StreamEvent
from vtcode.providers.anthropic_compaction import (
    CompactionStreamDecoder,
    beta_headers,
    encode_compaction_request,
)
from vtcode.providers.anthropic_request import encode_request
from vtcode.providers.anthropic_stream import AnthropicStreamDecoder
from vtcode.providers.base import InlineCompactionReply
from vtcode.providers.http import retrying
from vtcode.providers.streaming_client import StreamingClient


def messages_path(base_url: str) -> str:
    """The messages path relative to `base_url`, which may or may not end in `/v1`."""
    # ANTHROPIC_BASE_URL and the official SDK use the host root (https://api.anthropic.com), while
    # OpenAI-style settings and many proxies include the version; both forms reach `/v1/messages`.
    return "messages" if base_url.rstrip("/").endswith("/v1") else "v1/messages"


class AnthropicClient(StreamingClient):
    """A ModelClient for `POST /v1/messages` with `stream: true`.

    Authentication (`x-api-key`) and `anthropic-version` travel in `endpoint.headers`, set by the caller.
    """

    api_name = "Anthropic Messages"
    decoder_type = AnthropicStreamDecoder

    def path(self) -> str:
        """`messages` or `v1/messages`, depending on the base URL."""
        return messages_path(self.endpoint.base_url)

    def encode(self, request: ModelRequest) -> bytes:
        """The Messages body with cache breakpoints on the tools and the static system block."""
        return encode_request(request)

    @property
    def inline_compaction(self) -> bool:
        """Only Anthropic itself serves the compaction edit (a host speaking its wire may not)."""
        return self.endpoint.provider == "anthropic"

    async def compact_inline(
        self, request: ModelRequest, *, trigger_tokens: int, instructions: str | None = None
    ) -> InlineCompactionReply:
        """`request` with the compaction edit; what the last attempt's reply said (retried as any)."""
        body = encode_compaction_request(request, trigger_tokens, instructions)
        headers = beta_headers(self.endpoint.headers)
        decoders: list[CompactionStreamDecoder] = []

        def attempt() -> AsyncIterator[StreamEvent]:
            decoders.append(CompactionStreamDecoder(self.provider, api_key_env=self.endpoint.api_key_env))
            return self._decode(body, decoders[-1], headers)

        async for _ in retrying(attempt, self.endpoint.retry, sleep=self._sleep, notify=self._notify):
            pass
        last = decoders[-1]
        return InlineCompactionReply(
            compaction=last.compaction, stop_reason=last.stop_reason, usage=last.usage()
        )
