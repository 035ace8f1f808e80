"""Token estimates of messages and requests (reference compaction-steering section 1), counter injected.

The counter is a plain function so this module stays pure: `vtcode.tokens.encoding.text_counter()` gives
the BPE one; tests and the fallback use `byte_heuristic_tokens`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolResultMessage,
    UserMessage,
)

TextCounter = Callable[[str], int]

# Reference section 1.2, kept exactly (section 13.3): role overhead, per tool call, per image or file part.
# Providers bill an image by its pixels, not by the length of its base64 text, so an image counts as one
# attachment whatever its size.
MESSAGE_OVERHEAD_TOKENS = 4
TOOL_CALL_OVERHEAD_TOKENS = 20
ATTACHMENT_TOKENS = 1_000


def byte_heuristic_tokens(text: str) -> int:
    """ceil(UTF-8 bytes / 4): the fallback when no encoding is available (undercounts JSON)."""
    return -(-len(text.encode()) // 4)


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
