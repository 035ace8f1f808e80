"""The Chat Completions model client: OpenAI and every OpenAI-compatible server."""

from __future__ import annotations

from vtcode.protocol.model import ModelRequest
from vtcode.providers.openai_chat_request import encode_chat_request
from vtcode.providers.openai_chat_stream import ChatStreamDecoder
from vtcode.providers.streaming_client import StreamingClient

#: Relative to the endpoint's base URL, which carries the version prefix (`https://api.openai.com/v1`).
CHAT_COMPLETIONS_PATH = "chat/completions"


class OpenAIChatClient(StreamingClient):
    """Streams `POST {base_url}/chat/completions` replies as stream events, with bounded retries."""

    decoder_type = ChatStreamDecoder

    def path(self) -> str:
        """`chat/completions`."""
        return CHAT_COMPLETIONS_PATH

    def encode(self, request: ModelRequest) -> bytes:
        """The Chat Completions body (field choices depend on the provider, see the request module)."""
        return encode_chat_request(request, provider=self.provider)
