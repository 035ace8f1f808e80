"""How full the model's context window is before a request (pure): what compaction decides on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from vtcode.core.tokens import ATTACHMENT_TOKENS
from vtcode.protocol.messages import ImagePart, Message, ToolResultMessage, UserMessage
from vtcode.protocol.model import ModelRequest

RequestEstimator = Callable[[ModelRequest], int]

_encoder = msgspec.json.Encoder()
# "[image: image/png, 12 KB — this model does not take images]"
_NOTE_TOKENS = 16


@dataclass(frozen=True)
class ContextPressure:
    """The figures known just before a model request is sent.

    `last_prompt_tokens` is what the provider reported for the previous request of the session (None
    before the first reply, or when the provider reports nothing); `estimated_tokens` is the local
    estimate of the request about to be sent; `context_window` the model's window in tokens.
    """

    context_window: int
    estimated_tokens: int
    last_prompt_tokens: int | None = None

    @property
    def tokens(self) -> int:
        """The best figure for the request: the provider's count, raised to the local estimate.

        The provider's figure is exact for what was sent before, but the new request adds the last reply
        and tool results, which only the estimate sees.
        """
        return max(self.last_prompt_tokens or 0, self.estimated_tokens)

    @property
    def ratio(self) -> float:
        """`tokens` as a share of the window (may exceed 1.0)."""
        return self.tokens / self.context_window if self.context_window > 0 else 0.0


def estimate_request_bytes(request: ModelRequest) -> int:
    """A rough, provider-independent token estimate: the UTF-8 bytes of the request's JSON / 4.

    An image's base64 text is not what a provider bills (it counts pixels): each image counts
    `ATTACHMENT_TOKENS` for a model that takes images, and the few tokens of its note for one that does not.
    """
    size = len(request.system.static) + len(request.system.appendix)
    size += len(_encoder.encode(request.messages)) + len(_encoder.encode(request.tools))
    images = [image for message in request.messages for image in _images(message)]
    size -= sum(len(image.data) for image in images)
    tokens = -(-max(0, size) // 4)
    return tokens + len(images) * (ATTACHMENT_TOKENS if request.images else _NOTE_TOKENS)


def _images(message: Message) -> tuple[ImagePart, ...]:
    match message:
        case UserMessage(images=images) | ToolResultMessage(images=images):
            return images
        case _:
            return ()
