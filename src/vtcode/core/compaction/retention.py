"""The user's own words across compactions: every user message of the prefix, verbatim, within a budget.

SPEC 6.4 and issue "user's words are never lost": this replaces the reference's "last 4 user messages"
(section 6.5). Over budget, the oldest messages are shortened first, each with a visible marker; only when
every message is down to its short form are the oldest left to the summary.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from vtcode.core.compaction.truncate import shorten
from vtcode.core.images import with_image_notes
from vtcode.core.tokens import MESSAGE_OVERHEAD_TOKENS, MessageEstimator
from vtcode.protocol.messages import Message, SystemMessage, UserMessage

DEFAULT_RETAINED_USER_TOKENS = 4_000
RETAINED_HEADER = (
    "Earlier messages from the user, verbatim and oldest first (already taken into account in the summary "
    "above; they are context, not new requests):"
)
# What a shortened message keeps: enough to recognise the request, a marker says the rest went.
SHORT_FORM_TOKENS = 48


class Retained(msgspec.Struct, frozen=True):
    """The retained block (None when there is nothing to retain) and the messages it holds or left out."""

    block: SystemMessage | None
    kept: tuple[UserMessage, ...]
    shortened: int
    left_out: tuple[UserMessage, ...]


# The environment context item is sent as a user message but is not the user's words; its tag is the one
# `core.environment_context` renders.
ENVIRONMENT_CONTEXT_TAG = "<environment_context>"
_ENTRY = "[user]\n"
_SEPARATOR = "\n\n" + _ENTRY


def user_authored(messages: Sequence[Message]) -> list[UserMessage]:
    """The user's own messages, in order, including those an earlier compaction's block retained.

    Tool output and system notes are not the user's words. A block is split back into its entries; an
    entry whose text itself holds the separator splits in two and renders back to the same text.
    """
    found: list[UserMessage] = []
    for message in messages:
        if isinstance(message, UserMessage) and (message.content.strip() or message.images):
            # The environment context item is vtcode's, not a request of the user's.
            if message.meta.kind == "context" or message.content.startswith(ENVIRONMENT_CONTEXT_TAG):
                continue
            found.append(message)
        elif isinstance(message, SystemMessage) and message.content.startswith(RETAINED_HEADER + "\n\n"):
            body = message.content[len(RETAINED_HEADER) :]
            found += [UserMessage(entry) for entry in body.split(_SEPARATOR)[1:] if entry.strip()]
    return found


def retain_user_messages(
    messages: Sequence[Message], estimate: MessageEstimator, budget: int = DEFAULT_RETAINED_USER_TOKENS
) -> Retained:
    """The retained-user-messages block for a prefix: all user messages within `budget` tokens."""
    count = estimate.count
    users = user_authored(messages)
    if not users or budget <= 0:
        return Retained(block=None, kept=(), shortened=0, left_out=tuple(users))
    # Images are kept as notes: the block is text, and the summary already took them into account.
    originals = [with_image_notes(message.content, message.images) for message in users]
    texts = list(originals)
    # Cached estimates: a live session already counted these messages (overhead included).
    costs = [estimate(message) for message in users]
    fixed = count(RETAINED_HEADER) + MESSAGE_OVERHEAD_TOKENS
    # Linear in the number of messages (a 100,000-message session has ~16,000 of them): first leave to
    # the summary the oldest that would not fit even in short form, then shorten oldest first.
    short_costs = [min(cost, SHORT_FORM_TOKENS + MESSAGE_OVERHEAD_TOKENS + 2) for cost in costs]
    floor = fixed + sum(short_costs)
    first = 0
    while first < len(texts) and floor > budget:
        floor -= short_costs[first]
        first += 1
    total = fixed + sum(costs[first:])
    index = first
    while total > budget and index < len(texts):
        short = shorten(texts[index], SHORT_FORM_TOKENS, count)
        cost = count(short) + MESSAGE_OVERHEAD_TOKENS
        total += cost - costs[index]
        texts[index], costs[index] = short, cost
        index += 1
    kept = users[first:]
    if not kept:
        return Retained(block=None, kept=(), shortened=0, left_out=tuple(users))
    body = "".join(_SEPARATOR + text for text in texts[first:])
    return Retained(
        block=SystemMessage(content=RETAINED_HEADER + body),
        kept=tuple(kept),
        shortened=sum(1 for index in range(first, len(texts)) if texts[index] != originals[index]),
        left_out=tuple(users[:first]),
    )
