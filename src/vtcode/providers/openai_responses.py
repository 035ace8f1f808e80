"""The OpenAI Responses API client (`POST /v1/responses`, streaming, stateless)."""

from __future__ import annotations

from vtcode.protocol.model import ModelRequest
from vtcode.providers.base import NativeCompactionReply
from vtcode.providers.openai_responses_compact import (
    COMPACT_PATH,
    compact_usage,
    encode_compact_body,
    parse_compact_output,
)
from vtcode.providers.openai_responses_request import encode_responses_body
from vtcode.providers.openai_responses_stream import ResponsesStreamDecoder
from vtcode.providers.streaming_client import StreamingClient

#: Path below the endpoint's base URL (which carries the `/v1` prefix).
RESPONSES_PATH = "responses"


class OpenAIResponsesClient(StreamingClient):
    """A ModelClient speaking the Responses API; every request carries the whole conversation."""

    api_name = "OpenAI Responses"
    decoder_type = ResponsesStreamDecoder

    def path(self) -> str:
        """`responses`."""
        return RESPONSES_PATH

    def encode(self, request: ModelRequest) -> bytes:
        """The Responses body (`store: false`, the full input every time)."""
        return encode_responses_body(request)

    @property
    def native_compaction(self) -> bool:
        """Only OpenAI itself serves `/responses/compact` (compatible hosts do not, reference 5.1)."""
        return self.endpoint.provider == "openai"

    async def compact(self, request: ModelRequest) -> NativeCompactionReply:
        """The provider's compaction of `request`'s conversation (one attempt; the caller falls back)."""
        data = await self._transport.post_json(COMPACT_PATH, encode_compact_body(request))
        return NativeCompactionReply(parse_compact_output(data, self.provider), compact_usage(data))
