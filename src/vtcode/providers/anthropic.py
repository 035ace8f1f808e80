"""The Anthropic Messages API client: one streaming POST per attempt, retried by the shared loop."""

from __future__ import annotations

from vtcode.protocol.model import ModelRequest
from vtcode.providers.anthropic_request import encode_request
from vtcode.providers.anthropic_stream import AnthropicStreamDecoder
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

    def path(self) -> str:
        """`messages` or `v1/messages`, depending on the base URL."""
        return messages_path(self.endpoint.base_url)

    def encode(self, request: ModelRequest) -> bytes:
        """The Messages body with cache breakpoints on the tools and the static system block."""
        return encode_request(request)

    def decoder(self) -> AnthropicStreamDecoder:
        """A decoder for one stream."""
        return AnthropicStreamDecoder(self.provider, api_key_env=self.endpoint.api_key_env)
