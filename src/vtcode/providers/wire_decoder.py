"""What the three stream decoders do alike around their wire's event mapping: how a stream ends or fails.

A decoder is fed the SSE events of one response and returns stream events, the last one exactly one
`Completed`; `close` at the end of the bytes fails when the terminal event never came, so a cut stream is
retried rather than taken for a whole reply. The wire modules (`openai_chat_stream`,
`openai_responses_stream`, `anthropic_stream`) keep only their mapping of wire events to the
accumulator's parts, their stop reasons and their error shapes.
"""

from __future__ import annotations

from collections.abc import Iterable

from vtcode.protocol.errors import ProviderError
from vtcode.protocol.messages import Usage
from vtcode.protocol.model import Completed, StopReason
from vtcode.providers.errors import invalid_response, network_error, stream_error
from vtcode.providers.stream_accumulator import Part, assemble


class WireDecoder:
    """The base of the stream decoders: `done`, `close`, the final `Completed`, the errors it ends in."""

    def __init__(self, provider: str, *, api_key_env: str | None = None) -> None:
        self.provider = provider
        self.api_key_env = api_key_env
        # Set by the terminal event: the decoder returns nothing more after it.
        self.done = False
        self.response_id: str | None = None

    def close(self) -> None:
        """The byte stream ended: raise a retryable network error unless the terminal event arrived."""
        if not self.done:
            raise network_error(self.provider, "stream ended before completion")

    def _complete(self, parts: Iterable[Part], usage: Usage, stop: StopReason | None) -> Completed:
        """The terminal event with the reply the parts make; `stop` None: the wire named no reason."""
        self.done = True
        message = assemble(parts)
        if stop is None:
            # Without a stated reason a reply that calls tools waits for their results.
            stop = "tool_use" if message.tool_calls else "end_turn"
        return Completed(message, usage, stop, self.response_id)

    def _stream_error(self, kind: str, message: str) -> ProviderError:
        """An error the stream reported, classified by its wire's error type `kind`."""
        return stream_error(kind, message, provider=self.provider, api_key_env=self.api_key_env)

    def _undecodable(self, problem: Exception, data: str) -> ProviderError:
        """Event data that does not decode as the wire's JSON: what was wrong, and where."""
        return invalid_response(self.provider, f"undecodable event data ({problem}) in {_excerpt(data)}")


def _excerpt(data: str, limit: int = 120) -> str:
    return repr(data if len(data) <= limit else data[: limit - 1] + "…")
