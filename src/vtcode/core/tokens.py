"""Token estimates of messages and requests (reference compaction-steering section 1), counter injected.

The one estimator interface of vtcode: a `TextCounter`. `vtcode.tokens.encoding.text_counter()` gives the
BPE one, with `byte_heuristic_tokens` (UTF-8 bytes / 4) as its fallback when no encoding loads; tests, the
prompt size checks and the cheap whole-request estimate (`request_byte_tokens`) use the heuristic. The
counter is a plain function so this module stays pure.

Our estimates differ from what a provider counts (its tokenizer, its framing): `Calibration` is the
running ratio of reported to estimated prompt tokens that turns ours into the provider's (SPEC 6.3).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import msgspec

from vtcode.protocol.messages import (
    AssistantMessage,
    ImagePart,
    Message,
    SystemMessage,
    ToolResultMessage,
    UserMessage,
)
from vtcode.protocol.model import ModelRequest

TextCounter = Callable[[str], int]
RequestEstimator = Callable[[ModelRequest], int]

# Reference section 1.2, kept exactly (section 13.3): role overhead, per tool call, per image or file part.
# Providers bill an image by its pixels, not by the length of its base64 text, so an image counts as one
# attachment whatever its size.
MESSAGE_OVERHEAD_TOKENS = 4
TOOL_CALL_OVERHEAD_TOKENS = 20
ATTACHMENT_TOKENS = 1_000
# "[image: image/png, 12 KB — this model does not take images]"
_NOTE_TOKENS = 16

_encoder = msgspec.json.Encoder()


def byte_heuristic_tokens(text: str) -> int:
    """ceil(UTF-8 bytes / 4): the fallback when no encoding is available (undercounts JSON)."""
    return _bytes_to_tokens(len(text.encode()))


def _bytes_to_tokens(size: int) -> int:
    return -(-max(0, size) // 4)


def message_tokens(message: Message, count: TextCounter) -> int:
    """Estimate of one message: overhead, content, each call's name and arguments, a result's call id,
    `ATTACHMENT_TOKENS` per image.

    Reasoning and metadata are not counted, as in the reference (section 1.2): reasoning is rarely sent
    back in full and providers report what they did count once the request is answered.
    """
    total = MESSAGE_OVERHEAD_TOKENS
    match message:
        case UserMessage(content=text, images=images):
            total += count(text) + ATTACHMENT_TOKENS * len(images)
        case SystemMessage(content=text):
            total += count(text)
        case AssistantMessage(content=text, tool_calls=calls):
            total += count(text)
            for call in calls:
                total += TOOL_CALL_OVERHEAD_TOKENS + count(call.name) + count(call.arguments)
        case ToolResultMessage(call_id=call_id, content=text, images=images):
            total += count(call_id) + count(text) + ATTACHMENT_TOKENS * len(images)
    return total


class CachedCounter:
    """`count` remembering up to `entries` texts (forgotten all at once when full): texts such as the
    system prompt and the tool schemas repeat on every request and are counted once."""

    def __init__(self, count: TextCounter, entries: int) -> None:
        self._count = count
        self._entries = entries
        self._counts: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        """The count of `text`."""
        cached = self._counts.get(text)
        if cached is None:
            if len(self._counts) >= self._entries:
                self._counts.clear()
            cached = self._counts[text] = self._count(text)
        return cached


class MessageEstimator:
    """Per-message estimates, cached by value: a live session estimates each message once.

    Messages are frozen, so equal messages have equal estimates and the cache never goes stale.
    """

    def __init__(self, count: TextCounter) -> None:
        self.count = count
        self._cache: dict[Message, int] = {}

    def __call__(self, message: Message) -> int:
        """The estimate of `message`."""
        cached = self._cache.get(message)
        if cached is None:
            cached = message_tokens(message, self.count)
            self._cache[message] = cached
        return cached

    def total(self, messages: Iterable[Message]) -> int:
        """The sum of the estimates of `messages`."""
        return sum(self(message) for message in messages)

    def forget_all_but(self, messages: Sequence[Message]) -> None:
        """Drop cached estimates of messages no longer in the history (after a compaction)."""
        keep = {message: self._cache[message] for message in messages if message in self._cache}
        self._cache = keep


def request_tokens(
    *,
    system_prompt: str,
    tool_schemas_json: Sequence[str],
    message_estimates: Iterable[int],
    count: TextCounter,
) -> int:
    """Estimate of a whole request: system prompt, each tool schema's JSON text, and the messages.

    The reference counts the system prompt and schemas as bytes/4 (section 1.3); we use the same counter
    as for messages, because bytes/4 undercounts JSON schemas by about half (DESIGN section 3).
    """
    return count(system_prompt) + sum(count(schema) for schema in tool_schemas_json) + sum(message_estimates)


def request_byte_tokens(request: ModelRequest) -> int:
    """A rough, provider-independent token estimate: the UTF-8 bytes of the request's JSON / 4.

    An image's base64 text is not what a provider bills (it counts pixels): each image counts
    `ATTACHMENT_TOKENS` for a model that takes images, and the few tokens of its note for one that does not.
    """
    size = len(request.system.static) + len(request.system.appendix)
    size += len(_encoder.encode(request.messages)) + len(_encoder.encode(request.tools))
    images = [image for message in request.messages for image in _images(message)]
    size -= sum(len(image.data) for image in images)
    tokens = _bytes_to_tokens(size)
    return tokens + len(images) * (ATTACHMENT_TOKENS if request.images else _NOTE_TOKENS)


def _images(message: Message) -> tuple[ImagePart, ...]:
    match message:
        case UserMessage(images=images) | ToolResultMessage(images=images):
            return images
        case _:
            return ()


# -- calibration to the provider's count (SPEC 6.3) --------------------------------------------------

MIN_RATIO = 0.5
MAX_RATIO = 3.0
# A figure this far from our estimate does not count the request we estimated (a proxy or test server
# that reports a placeholder, a count of the cached part only): it is not a sample.
PLAUSIBLE_RANGE = (0.2, 5.0)
# Weight of the newest sample: a few requests settle the ratio, one odd figure does not swing it.
SAMPLE_WEIGHT = 0.3


class Calibration(msgspec.Struct, frozen=True):
    """The running ratio of provider-reported to estimated prompt tokens (1.0 before any sample).

    Pressure is the provider's reported prompt size, the tail is planned with our BPE estimate; a
    provider whose tokenizer counts 1.3-2x ours (Anthropic, Gemini on code) left a compacted history
    "still above the threshold" by its own figures, so compaction thrashed or failed the turn. The ratio
    of reported to estimated prompt tokens of the same request converts our estimates into provider tokens.
    """

    ratio: float = 1.0
    samples: int = 0

    def observed(self, reported: int, estimated: int) -> Calibration:
        """The calibration after the provider reported `reported` tokens for a request we estimated."""
        if reported <= 0 or estimated <= 0:
            return self
        sample = reported / estimated
        low, high = PLAUSIBLE_RANGE
        if not low <= sample <= high:
            return self
        ratio = sample if self.samples == 0 else self.ratio + SAMPLE_WEIGHT * (sample - self.ratio)
        return Calibration(ratio=min(MAX_RATIO, max(MIN_RATIO, ratio)), samples=self.samples + 1)

    def provider(self, estimated: int) -> int:
        """`estimated` tokens of ours in provider tokens (rounded up: thresholds are upper bounds)."""
        return math.ceil(estimated * self.ratio)

    def ours(self, provider_tokens: int) -> int:
        """`provider_tokens` in tokens of our estimate (rounded down)."""
        return math.floor(provider_tokens / self.ratio)
